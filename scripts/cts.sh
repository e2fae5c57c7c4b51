#!/usr/bin/env bash
# Configures and builds suites of the Khronos OpenCL conformance tests (OpenCL-CTS) against
# Debian's OpenCL headers and ICD loader, runs each on pocl and on Ventus, and prints the
# sub-tests passed / failed / not supported on each side by side, then every sub-test that
# passes on pocl and not on Ventus.
#
#   scripts/cts.sh CTS_DIR [SUITE...]
#
# CTS_DIR is a checkout of KhronosGroup/OpenCL-CTS whose headers match the installed ones
# (Debian's opencl-c-headers 3.0~2023.02.06 builds the CTS of March 2023, e.g. commit 9798a96a;
# a newer CTS uses enums these headers lack). It is never modified. SUITE is the name of a
# test_conformance directory (basic, api, ...); the default is the cheap set below.
# math_brute_force and conversions run in their reduced ("wimpy", -w) mode; CTS_ARGS, if set,
# replaces every suite's arguments (e.g. CTS_ARGS='-w -[512] -f' runs math_brute_force's double
# functions only, on one block of inputs each).
# Environment: VENTUS_BUILD_DIR (default build), POCL_ICD (default /etc/OpenCL/vendors/pocl.icd),
# TIMEOUT per suite run in seconds (default 1800), WORK (default ${TMPDIR:-/tmp}/ventus-cts),
# VENTUS_JIT_MODES (e.g. "off on force": Ventus runs once per translation mode, VENTUS_JIT, in
# a column each, and every sub-test whose result differs between the modes is listed).
# See docs/conformance.md.
set -uo pipefail
if [ $# -lt 1 ] || [ ! -f "$1/test_conformance/CMakeLists.txt" ]; then
  echo "usage: $0 CTS_DIR [SUITE...] (CTS_DIR/test_conformance/CMakeLists.txt must exist)" >&2
  exit 1
fi
repo=$(cd "$(dirname "$0")/.." && pwd)
cts=$(cd "$1" && pwd)
shift
build=$(cd "$repo" && cd "${VENTUS_BUILD_DIR:-build}" && pwd) || exit 1
ventus_icd=$build/ventus.icd
pocl_icd=${POCL_ICD:-/etc/OpenCL/vendors/pocl.icd}
timeout_s=${TIMEOUT:-1800}
work=${WORK:-${TMPDIR:-/tmp}/ventus-cts}
for f in "$ventus_icd" "$pocl_icd"; do
  [ -f "$f" ] || { echo "$0: $f is missing (build VentusOpenCL / install pocl-opencl-icd)" >&2; exit 1; }
done
if [ $# -gt 0 ]; then
  suites=("$@")
else
  suites=(computeinfo profiling events geometrics relationals commonfns printf integer_ops
          atomics vectors buffers basic api compiler)
fi

# The CMake project insists on SPIR-V headers (only api's SPIR-V queries and spirv_new read
# them; Debian's spirv-headers package provides them): an empty directory satisfies the check.
mkdir -p "$work/logs" "$work/no-spirv"
if [ ! -f "$work/build/build.ninja" ]; then
  nice -n 15 cmake -S "$cts" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCL_INCLUDE_DIR=/usr/include -DCL_LIB_DIR=/usr/lib/x86_64-linux-gnu -DOPENCL_LIBRARIES=OpenCL \
    -DSPIRV_INCLUDE_DIR="${SPIRV_INCLUDE_DIR:-$work/no-spirv}" > "$work/logs/configure" 2>&1 ||
    { echo "$0: configuring failed, see $work/logs/configure" >&2; exit 1; }
fi

# The CTS harness (test_common/harness/testHarness.cpp) ends with "PASSED n of n tests." or
# "FAILED f of n tests.", n not counting the tests it skips ("NAME test not supported", "NAME
# skipped (requires ...)"). Without that line (a crash, a timeout) the "NAME passed" / "NAME FAILED"
# lines are counted; threads of some suites print those in the middle of other lines.
summarize() { # $1 = log: prints pass/fail/skip
  local skip last
  skip=$(grep -cE '^[A-Za-z0-9_]+ test not supported$|^[A-Za-z0-9_]+ skipped \(requires' "$1")
  last=$(grep -oE '^(PASSED|FAILED) [0-9]+ of [0-9]+ tests\.' "$1" | tail -1)
  case $last in
  PASSED*) set -- $last; echo "$4/0/$skip" ;;
  FAILED*) set -- $last; echo "$(($4 - $2))/$2/$skip" ;;
  *) echo "$(grep -cE '^[A-Za-z0-9_]+ passed$' "$1")/$(grep -cE '^[A-Za-z0-9_]+ FAILED$' "$1")/$skip" ;;
  esac
}

# pocl and Ventus (once per VENTUS_JIT_MODES mode): platforms, ventus_platforms, platform_env.
source "$repo/scripts/platforms.sh"
printf '%-18s' suite
for platform in "${platforms[@]}"; do printf ' %-22s' "$platform pass/fail/skip"; done
for platform in "${platforms[@]}"; do printf ' %8s' "${platform}_s"; done
echo
notes=""
for suite in "${suites[@]}"; do
  target=test_$suite
  [ "$suite" = math_brute_force ] && target=test_bruteforce
  args=()
  case $suite in math_brute_force | conversions) args=(-w) ;; esac
  [ -n "${CTS_ARGS:-}" ] && read -ra args <<< "$CTS_ARGS"
  if ! nice -n 15 ninja -C "$work/build" -j1 "$target" > "$work/logs/$suite.build" 2>&1; then
    printf '%-18s %-22s\n' "$suite" "build failed"
    notes+="$suite: build failed, see $work/logs/$suite.build"$'\n'
    continue
  fi
  exe=$(find "$work/build/test_conformance" -name "$target" -type f -perm -u+x | head -1)
  declare -A summary seconds
  for platform in "${platforms[@]}"; do
    platform_env "$platform"
    log=$work/logs/$suite.$platform
    start=$(date +%s)
    (cd "$(dirname "$exe")" && env "${platform_vars[@]}" timeout "$timeout_s" nice -n 15 "$exe" "${args[@]}" > "$log" 2>&1)
    rc=$?
    seconds[$platform]=$(($(date +%s) - start))
    summary[$platform]=$(summarize "$log")
    [ $rc -eq 124 ] && summary[$platform]+=" timeout"
    [ $rc -gt 128 ] && [ $rc -ne 124 ] && summary[$platform]+=" crash($rc)"
  done
  printf '%-18s' "$suite"
  for platform in "${platforms[@]}"; do printf ' %-22s' "${summary[$platform]}"; done
  for platform in "${platforms[@]}"; do printf ' %8s' "${seconds[$platform]}"; done
  echo
  for platform in "${ventus_platforms[@]}"; do
    for t in $(grep -oE '^[A-Za-z0-9_]+ passed$' "$work/logs/$suite.pocl" | cut -d' ' -f1); do
      grep -qxE "$t passed" "$work/logs/$suite.$platform" ||
        notes+="$suite/$t: passes on pocl, $(grep -qxE "$t FAILED" "$work/logs/$suite.$platform" && echo FAILED || echo 'not reached or not supported') on $platform"$'\n'
    done
  done
  # Translation must not change a result: a sub-test that passed in one mode and failed in
  # another (not one cut off by the timeout in one of them) is a translator bug.
  if [ ${#ventus_platforms[@]} -gt 1 ]; then
    for t in $(cat "${ventus_platforms[@]/#/$work/logs/$suite.}" | grep -oE '^[A-Za-z0-9_]+ (passed|FAILED)$' | cut -d' ' -f1 | sort -u); do
      verdicts=""
      for platform in "${ventus_platforms[@]}"; do
        verdicts+=" $(grep -oxE "$t (passed|FAILED)" "$work/logs/$suite.$platform" | cut -d' ' -f2 | head -1)"
      done
      [[ $verdicts == *passed* && $verdicts == *FAILED* ]] &&
        notes+="$suite/$t: differs between translation modes (${VENTUS_JIT_MODES}:$verdicts)"$'\n'
    done
  fi
done
[ -z "$notes" ] || printf '\n%s' "$notes"
echo "logs: $work/logs"
