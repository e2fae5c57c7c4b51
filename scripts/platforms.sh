# shellcheck shell=bash disable=SC2034
# Sourced by cts.sh, pyopencl.sh and rodinia.sh, which set pocl_icd and ventus_icd first: the
# platforms they run side by side. pocl, then Ventus once, or once per translation mode named
# in VENTUS_JIT_MODES (e.g. "off on force": platforms ventus-off, ventus-on, ventus-force).
platforms=(pocl)
if [ -n "${VENTUS_JIT_MODES:-}" ]; then
  for mode in $VENTUS_JIT_MODES; do platforms+=("ventus-$mode"); done
else
  platforms+=(ventus)
fi
ventus_platforms=("${platforms[@]:1}")

# platform_env PLATFORM: sets platform_vars to the environment that runs on PLATFORM.
platform_env() {
  if [ "$1" = pocl ]; then
    platform_vars=("OCL_ICD_VENDORS=$pocl_icd")
  else
    platform_vars=("OCL_ICD_VENDORS=$ventus_icd")
  fi
  if [[ $1 == ventus-* ]]; then platform_vars+=("VENTUS_JIT=${1#ventus-}"); fi
}
