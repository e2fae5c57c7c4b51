#!/usr/bin/env bash
# Runs PyOpenCL's own test suite (Debian's python3-pyopencl, tests of the same release) on pocl
# and on Ventus and prints, per test file, the tests passed / failed / skipped on each.
#
#   scripts/pyopencl.sh PYOPENCL_TEST_DIR [TEST_FILE...]
#
# PYOPENCL_TEST_DIR holds PyOpenCL's test/*.py of the installed release, e.g.
#   git --git-dir=.../inducer/pyopencl archive v2022.3.1 test | tar -x   (Debian bookworm)
# It is never modified. TEST_FILE defaults to every test_*.py there.
# Counts come from pytest -v's per-test lines, so a file stopped by the timeout still shows
# what ran before it (and "timeout"). Every test that passes on pocl and not on Ventus is listed.
# Environment: VENTUS_BUILD_DIR (default build), POCL_ICD (default /etc/OpenCL/vendors/pocl.icd),
# TIMEOUT per file and platform in seconds (default 900), WORK (default ${TMPDIR:-/tmp}/ventus-pyopencl),
# VENTUS_JIT_MODES (e.g. "off on force": Ventus runs once per translation mode, VENTUS_JIT, in a
# column each, and every test whose result differs between the modes is listed).
# See docs/conformance.md.
set -uo pipefail
if [ $# -lt 1 ] || ! ls "$1"/test_*.py > /dev/null 2>&1; then
  echo "usage: $0 PYOPENCL_TEST_DIR [TEST_FILE...] (PYOPENCL_TEST_DIR/test_*.py must exist)" >&2
  exit 1
fi
repo=$(cd "$(dirname "$0")/.." && pwd)
tests=$(cd "$1" && pwd)
shift
build=$(cd "$repo" && cd "${VENTUS_BUILD_DIR:-build}" && pwd) || exit 1
ventus_icd=$build/ventus.icd
pocl_icd=${POCL_ICD:-/etc/OpenCL/vendors/pocl.icd}
timeout_s=${TIMEOUT:-900}
work=${WORK:-${TMPDIR:-/tmp}/ventus-pyopencl}
for f in "$ventus_icd" "$pocl_icd"; do
  [ -f "$f" ] || { echo "$0: $f is missing (build VentusOpenCL / install pocl-opencl-icd)" >&2; exit 1; }
done
/usr/bin/python3 -c 'import pyopencl, pytest' 2> /dev/null ||
  { echo "$0: /usr/bin/python3 lacks pyopencl or pytest (apt install python3-pyopencl python3-pytest)" >&2; exit 1; }
if [ $# -gt 0 ]; then files=("$@"); else files=($(cd "$tests" && ls test_*.py)); fi

# "test_id STATUS" per test, sorted, with the device (part of PyOpenCL's test ids) removed.
results() { # $1 = pytest -v log
  grep -E '::.* (PASSED|FAILED|ERROR|SKIPPED|XFAIL)' "$1" |
    sed -E 's/<context factory for <pyopencl\.Device [^>]*>>//; s/ +\[ *[0-9]+%\]$//' |
    awk '{ print $1, $NF }' | LC_ALL=C sort -u -k1,1
}

mkdir -p "$work/logs"
# pocl and Ventus (once per VENTUS_JIT_MODES mode): platforms, ventus_platforms, platform_env.
source "$repo/scripts/platforms.sh"
printf '%-26s' file
for platform in "${platforms[@]}"; do printf ' %-22s' "$platform pass/fail/skip"; done
for platform in "${platforms[@]}"; do printf ' %8s' "${platform}_s"; done
echo
notes=""
for file in "${files[@]}"; do
  declare -A summary seconds
  for platform in "${platforms[@]}"; do
    platform_env "$platform"
    log=$work/logs/${file%.py}.$platform
    start=$(date +%s)
    # A private compiler cache per platform: PyOpenCL's cache must not hide a build failure.
    (cd "$tests" && env "${platform_vars[@]}" "XDG_CACHE_HOME=$work/cache.$platform" \
       timeout "$timeout_s" nice -n 15 /usr/bin/python3 -m pytest -v -p no:cacheprovider "$file" > "$log" 2>&1)
    rc=$?
    seconds[$platform]=$(($(date +%s) - start))
    summary[$platform]="$(grep -cE '::.* PASSED' "$log")/$(grep -cE '::.* (FAILED|ERROR)' "$log")/$(grep -cE '::.* (SKIPPED|XFAIL)' "$log")"
    [ $rc -eq 124 ] && summary[$platform]+=" timeout"
    [ $rc -gt 128 ] && [ $rc -ne 124 ] && summary[$platform]+=" crash($rc)"
  done
  printf '%-26s' "$file"
  for platform in "${platforms[@]}"; do printf ' %-22s' "${summary[$platform]}"; done
  for platform in "${platforms[@]}"; do printf ' %8s' "${seconds[$platform]}"; done
  echo
  for platform in "${platforms[@]}"; do results "$work/logs/${file%.py}.$platform" > "$work/logs/${file%.py}.$platform.results"; done
  # join needs both lists sorted alike; a test not run on ventus (timeout) shows as "not run".
  for platform in "${ventus_platforms[@]}"; do
    notes+=$(LC_ALL=C join -a1 -e "not-run" -o 1.1,1.2,2.2 "$work/logs/${file%.py}.pocl.results" \
               "$work/logs/${file%.py}.$platform.results" |
             awk -v p="$platform" '$2 == "PASSED" && $3 != "PASSED" { printf "%s: passes on pocl, %s on %s\n", $1, $3, p }')$'\n'
  done
  # Translation must not change a result: a test that ran in two modes with different outcomes
  # is a translator bug.
  for platform in "${ventus_platforms[@]:1}"; do
    notes+=$(LC_ALL=C join -e "not-run" -o 1.1,1.2,2.2 "$work/logs/${file%.py}.${ventus_platforms[0]}.results" \
               "$work/logs/${file%.py}.$platform.results" |
             awk -v a="${ventus_platforms[0]}" -v b="$platform" \
               '$2 != $3 { printf "%s: %s on %s, %s on %s (translation modes differ)\n", $1, $2, a, $3, b }')$'\n'
  done
done
[ -z "${notes//$'\n'/}" ] || printf '\n%s' "$(grep -v '^$' <<< "$notes")"$'\n'
echo "logs: $work/logs"
