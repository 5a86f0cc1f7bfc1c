#!/usr/bin/env bash
# Follows the "Getting started" article from an empty folder: writes the files its code blocks
# name (a block whose first line is `// <path>`), runs the program, and requires the output the
# article shows (its `text` block).
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
article="$repo/Sources/InjectableKit/InjectableKit.docc/GettingStarted.md"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Under another folder name than the package's: the article's `name:` must make that work.
ln -s "$repo" "$work/injectablekit-checkout"
mkdir "$work/App"
python3 - "$article" "$work/App" "$work/expected.txt" <<'PYTHON'
import os, re, sys
article, app, expected = sys.argv[1:]
blocks = re.findall(r"```(\w*)\n(.*?)```", open(article).read(), re.S)
files = 0
for language, body in blocks:
    first, _, rest = body.partition("\n")
    if language == "swift" and first.startswith("// ") and first[3:].strip().endswith(".swift"):
        path = os.path.join(app, first[3:].strip())
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if path.endswith("Package.swift"):
            if '"../InjectableKit"' not in rest:
                sys.exit("the article's Package.swift no longer adds ../InjectableKit")
            rest = rest.replace('"../InjectableKit"', '"../injectablekit-checkout"')
        open(path, "w").write(rest)
        files += 1
    elif language == "text":
        open(expected, "w").write(body)
if files < 2 or not os.path.exists(expected):
    sys.exit("the article lost its Package.swift, main.swift or expected output")
PYTHON

swift build --package-path "$work/App" -Xswiftc -warnings-as-errors >/dev/null
swift run --skip-build --package-path "$work/App" App >"$work/actual.txt"
if diff -u "$work/expected.txt" "$work/actual.txt"; then
    echo "getting started: 1 passed, 0 failed"
else
    echo "getting started: the program's output differs from the article's"
    exit 1
fi
