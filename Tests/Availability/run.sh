#!/usr/bin/env bash
# Checks the library's system modules and APIs against .ci/availability.tsv, and every use of an
# API above the deployment floor (in Sources, Demo and Tests) against the `@available` or
# `#available` around it: builds check.swift (optimised: it reads the standard library's symbol
# graph) and runs it from the package root. It also runs its self-test, SelfTest/Snippets.swift,
# whose marked lines it must flag, so that it cannot pass by finding nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."

build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
swiftc -O -swift-version 6 -o "$build/check" Tests/Availability/check.swift
"$build/check" "$(swiftc -print-target-info | sed -n 's/.*"triple": "\(.*\)".*/\1/p' | head -1)"
