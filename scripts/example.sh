#!/usr/bin/env bash
# The main job on the built-in example: assemble the example kernels and list them.
set -euo pipefail
cd "$(dirname "$0")/.."
ventus=build/tools/ventus/ventus
mkdir -p build/examples
for src in examples/*.s; do
  [ -e "$src" ] || continue
  out=build/examples/$(basename "${src%.s}").elf
  "$ventus" as -o "$out" "$src"
  "$ventus" objdump "$out"
done
