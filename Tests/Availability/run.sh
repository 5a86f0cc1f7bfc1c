#!/usr/bin/env bash
# Checks the library's system modules and APIs against .ci/availability.tsv: builds check.swift
# (optimised: it reads the standard library's symbol graph) and runs it from the package root.
set -euo pipefail
cd "$(dirname "$0")/../.."

build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
swiftc -O -swift-version 6 -o "$build/check" Tests/Availability/check.swift
"$build/check" "$(swiftc -print-target-info | sed -n 's/.*"triple": "\(.*\)".*/\1/p' | head -1)"
