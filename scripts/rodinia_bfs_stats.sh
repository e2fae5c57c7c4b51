#!/usr/bin/env bash
# Rodinia's BFS kernels (issue 17, item 14) compiled by `ventus cc` and run on a generated
# graph: appends opencl/bfs/Kernels.cl of the user's Rodinia checkout, unmodified, to the
# harness scripts/rodinia_bfs_harness.cl, runs the result with cc_vs_pocl_run (the results
# checked against pocl's) and prints the instructions the Ventus side executed.
#
#   scripts/rodinia_bfs_stats.sh RODINIA_DIR [CC_VS_POCL_RUN OPTION...]   (default -O2)
#
# RODINIA_DIR is a checkout of THU-DSP-LAB/gpu-rodinia; nothing of it enters this
# repository. Environment: VENTUS_BUILD_DIR (default build). See docs/compiler.md.
set -euo pipefail
if [ $# -lt 1 ] || [ ! -f "$1/opencl/bfs/Kernels.cl" ]; then
  echo "usage: $0 RODINIA_DIR [OPTION...] (RODINIA_DIR/opencl/bfs/Kernels.cl must exist)" >&2
  exit 1
fi
repo=$(cd "$(dirname "$0")/.." && pwd)
kernels=$1/opencl/bfs/Kernels.cl
shift
build=$(cd "$repo" && cd "${VENTUS_BUILD_DIR:-build}" && pwd)
runner=$build/tests/cc_vs_pocl/cc_vs_pocl_run
[ -x "$runner" ] || { echo "$0: $runner is not built" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
{
  cat "$repo/scripts/rodinia_bfs_harness.cl"
  echo
  echo "// ---- opencl/bfs/Kernels.cl ----"
  cat "$kernels"
} >"$work/rodinia_bfs.cl"
[ $# -gt 0 ] || set -- -O2
"$runner" --stats "$@" "$work/rodinia_bfs.cl"
