// The kernel metadata: what `ventus cc` records about each kernel in the ELF's
// `.ventus.kernels` section (docs/driver.md, "Kernel metadata") and the runtime reads back.
// One record type and one JSON reader and writer, shared by the compiler and the runtime.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ventus/abi.h"

namespace ventus::rt {

// The version the writer records. The reader also accepts version 1, which has no
// `stack_bytes`: its kernels use the start code's abi::kWarpStackBytes.
inline constexpr uint64_t kKernelMetadataVersion = 2;
// The largest argument buffer a kernel may have.
inline constexpr uint64_t kMaxArgumentBytes = 64 * 1024;
// The private memory of one launch (all its threads), so also of one thread.
inline constexpr uint64_t kMaxPrivateBytes = uint64_t{1} << 30;

// Where a kernel argument points (pointers), or `private_` for a value passed by value.
enum class AddressSpace : uint8_t { global, constant, local, private_ };
// The metadata's spelling: "global", "constant", "local", "private".
std::string_view to_string(AddressSpace space);
std::optional<AddressSpace> address_space_from_string(std::string_view text);

struct KernelArgInfo {
  std::string name;
  std::string type;  // OpenCL type name, e.g. "float*", "int4"
  AddressSpace address_space = AddressSpace::private_;
  std::string qualifiers;  // type qualifiers as declared: "const", "restrict", "volatile"
  uint32_t offset = 0;     // byte offset in the argument buffer
  uint32_t size = 0;       // bytes of the value (4 for pointers)
};

struct KernelInfo {
  std::string name;
  uint32_t local_bytes = 0;    // the kernel's __local variables
  uint32_t private_bytes = 0;  // private memory per thread its frames need
  // The scalar stack of each warp in local memory (sp), the stride its code assumes:
  // warp w's stack is [CSR_LDS + w * stack_bytes, + stack_bytes), the workgroup's local
  // data starts after the W stacks. At least abi::kWarpStackBytes, a multiple of 4.
  uint32_t stack_bytes = abi::kWarpStackBytes;
  uint32_t sgpr = 0, vgpr = 0;
  uint32_t reqd_work_group_size[3] = {0, 0, 0};  // reqd_work_group_size, or zeros
  // The kernel's attributes as CL_KERNEL_ATTRIBUTES gives them, space-separated:
  // "vec_type_hint(float4) work_group_size_hint(8,8,1) reqd_work_group_size(16,1,1)".
  std::string attributes;
  std::vector<KernelArgInfo> args;
};

// The JSON of a `.ventus.kernels` section, version kKernelMetadataVersion.
std::string write_kernel_metadata(std::span<const KernelInfo> kernels);

// Reads what write_kernel_metadata wrote: every field is checked for its type and range;
// unknown and missing fields and another version are errors. ventus::Error says which
// kernel, argument and field.
std::vector<KernelInfo> parse_kernel_metadata(std::string_view json);

}  // namespace ventus::rt
