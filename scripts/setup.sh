#!/usr/bin/env bash
# Installs the build dependencies from Debian's packages, builds the project into build/,
# and runs the built-in example. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  build-essential cmake ninja-build pkg-config python3
  libcli11-dev libfmt-dev libgtest-dev libgmock-dev libbenchmark-dev libelf-dev nlohmann-json3-dev
  binutils-riscv64-unknown-elf qemu-user
  # The OpenCL C compiler (ventus cc): clang and LLVM 15 in process and the clang-15 binary
  # for the builtin library; LLVM 15 because Debian's pocl (the tests' reference OpenCL)
  # links it, and a process holds one libLLVM.
  llvm-15-dev libclang-15-dev clang-15 nlohmann-json3-dev
  pocl-opencl-icd ocl-icd-opencl-dev opencl-headers clinfo
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
sudo_cmd=()
[ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build

# Registers the Ventus OpenCL platform with the ICD loader for every program on this
# machine (docs/opencl.md); OCL_ICD_VENDORS=build/ventus.icd works without this.
icd_line="$(cat build/ventus.icd)"
if [ "$(cat /etc/OpenCL/vendors/ventus.icd 2>/dev/null)" != "$icd_line" ]; then
  echo "setup: registering the Ventus OpenCL platform in /etc/OpenCL/vendors/ventus.icd"
  if ! { "${sudo_cmd[@]}" mkdir -p /etc/OpenCL/vendors &&
         echo "$icd_line" | "${sudo_cmd[@]}" tee /etc/OpenCL/vendors/ventus.icd >/dev/null; }; then
    echo "setup: could not write /etc/OpenCL/vendors; use OCL_ICD_VENDORS=$PWD/build/ventus.icd"
  fi
fi

scripts/example.sh
