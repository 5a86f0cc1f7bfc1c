#!/usr/bin/env bash
# The compile-time safety claim, tested: type-checks each snippet here against the built
# InjectableKit module. A snippet whose first line is `// expect: compiles` must compile (so
# that this script cannot pass vacuously); every other one must fail, with its `// expect:`
# text in the compiler's diagnostics. A second line `// flags: ...` adds compiler flags; a
# header line `// prelude: Name` type-checks the snippet with `Preludes/Name.swift`.
set -euo pipefail
cd "$(dirname "$0")/../.."

swift build --target InjectableKit >/dev/null
modules="$(swift build --show-bin-path)/Modules"

passed=0
failed=0
for snippet in Tests/CompileFail/*.swift; do
    expect=$(sed -n '1s|^// expect: ||p' "$snippet")
    if [ -z "$expect" ]; then
        echo "FAIL $snippet: its first line must be '// expect: ...'"
        failed=$((failed + 1))
        continue
    fi
    read -r -a flags <<<"$(sed -n '2s|^// flags: ||p' "$snippet")"
    prelude=$(sed -n '1,5s|^// prelude: ||p' "$snippet")
    sources=("$snippet")
    if [ -n "$prelude" ]; then sources+=("Tests/CompileFail/Preludes/$prelude.swift"); fi
    status=0
    # The library's C target (its atomics) is a module the library imports: a client finds it
    # by its module map, as SwiftPM's builds do.
    output=$(swiftc -typecheck -swift-version 6 ${flags[@]+"${flags[@]}"} -I "$modules" \
        -I Sources/CInjectableAtomics/include "${sources[@]}" 2>&1) ||
        status=$?
    if [ "$expect" = "compiles" ]; then
        if [ "$status" -eq 0 ]; then
            echo "ok   $snippet compiles"
            passed=$((passed + 1))
        else
            echo "FAIL $snippet should compile:"
            echo "$output"
            failed=$((failed + 1))
        fi
    elif [ "$status" -eq 0 ]; then
        echo "FAIL $snippet compiled, but must not"
        failed=$((failed + 1))
    elif grep -qF -- "$expect" <<<"$output"; then
        echo "ok   $snippet does not compile: $expect"
        passed=$((passed + 1))
    else
        echo "FAIL $snippet failed without '$expect':"
        echo "$output"
        failed=$((failed + 1))
    fi
done
echo "compile-fail: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
