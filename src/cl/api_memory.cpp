// Buffers and sub-buffers, the commands that move their data, and the image and sampler
// entry points of a device without images.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstring>

#include "commands.h"
#include "info.h"

namespace ventus::cl {
namespace {

constexpr cl_mem_flags kAccessFlags = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
constexpr cl_mem_flags kHostPtrFlags = CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;
constexpr cl_mem_flags kHostAccessFlags = CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
constexpr size_t kSubBufferAlignment = 1024 / 8;  // CL_DEVICE_MEM_BASE_ADDR_ALIGN

bool at_most_one(cl_mem_flags flags, cl_mem_flags group) {
  const cl_mem_flags f = flags & group;
  return (f & (f - 1)) == 0;
}

cl_int check_flags(cl_mem_flags flags) {
  if ((flags & ~(kAccessFlags | kHostPtrFlags | kHostAccessFlags)) != 0) return CL_INVALID_VALUE;
  if (!at_most_one(flags, kAccessFlags) || !at_most_one(flags, kHostAccessFlags)) return CL_INVALID_VALUE;
  if ((flags & CL_MEM_USE_HOST_PTR) && (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)))
    return CL_INVALID_VALUE;
  return CL_SUCCESS;
}

// Whether the host may read (write) the buffer through commands (CL_MEM_HOST_* flags).
bool host_may_read(const Mem* m) {
  return (m->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)) == 0;
}
bool host_may_write(const Mem* m) {
  return (m->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)) == 0;
}

bool in_range(const Mem* m, size_t offset, size_t bytes) {
  return offset <= m->size && bytes <= m->size - offset;
}

// A rectangle of a buffer or of host memory: 3-D origin, row and slice pitch.
struct Rect {
  size_t origin[3];
  size_t row_pitch, slice_pitch;
  size_t offset(size_t y, size_t z) const {
    return (origin[2] + z) * slice_pitch + (origin[1] + y) * row_pitch + origin[0];
  }
};

// Fills in zero pitches as the spec defines them and checks them (CL_INVALID_VALUE), also
// when a slice's size would not fit in a size_t.
bool complete_pitches(const size_t region[3], size_t& row, size_t& slice) {
  if (row == 0) row = region[0];
  if (row < region[0]) return false;
  size_t rows_bytes = 0;
  if (__builtin_mul_overflow(region[1], row, &rows_bytes)) return false;
  if (slice == 0) slice = rows_bytes;
  if (slice < rows_bytes || slice % row != 0) return false;
  return true;
}

// Whether two boxes of one buffer with the same pitches overlap: the reference algorithm
// of the OpenCL 1.2 specification (appendix D, CL_MEM_COPY_OVERLAP). Origins are byte
// positions from the buffer's start; boxes whose byte spans interleave (rows in each
// other's gaps) do not overlap.
bool rects_overlap(const Rect& src, const Rect& dst, const size_t region[3]) {
  const size_t row_pitch = src.row_pitch, slice_pitch = src.slice_pitch;
  const size_t slice_size = (region[1] - 1) * row_pitch + region[0];
  const size_t block_size = (region[2] - 1) * slice_pitch + slice_size;
  const size_t src_start = src.offset(0, 0), dst_start = dst.offset(0, 0);
  if (dst_start + block_size <= src_start || src_start + block_size <= dst_start) return false;
  const size_t src_dx = src.origin[0] % row_pitch, dst_dx = dst.origin[0] % row_pitch;
  if ((dst_dx >= src_dx + region[0] && dst_dx + region[0] <= src_dx + row_pitch) ||
      (src_dx >= dst_dx + region[0] && src_dx + region[0] <= dst_dx + row_pitch))
    return false;
  const size_t src_dy = (src.origin[1] * row_pitch + src.origin[0]) % slice_pitch;
  const size_t dst_dy = (dst.origin[1] * row_pitch + dst.origin[0]) % slice_pitch;
  if ((dst_dy >= src_dy + slice_size && dst_dy + slice_size <= src_dy + slice_pitch) ||
      (src_dy >= dst_dy + slice_size && src_dy + slice_size <= dst_dy + slice_pitch))
    return false;
  return true;
}

// Whether the rectangle lies within `size` bytes, computed without wrapping around.
bool rect_fits(const Rect& r, const size_t region[3], size_t size) {
  for (int d = 0; d < 3; ++d)
    if (r.origin[d] > size || region[d] > size) return false;
  // Each term is below 2^34 * 2^64, so the sum fits in 128 bits.
  using Wide = unsigned __int128;
  const Wide last = (Wide{r.origin[2]} + region[2] - 1) * r.slice_pitch +
                    (Wide{r.origin[1]} + region[1] - 1) * r.row_pitch + r.origin[0] + region[0];
  return last <= size;
}

cl_int check_rect_args(const size_t* buffer_origin, const size_t* host_origin, const size_t* region,
                       size_t& buffer_row, size_t& buffer_slice, size_t& host_row,
                       size_t& host_slice) {
  if (buffer_origin == nullptr || host_origin == nullptr || region == nullptr) return CL_INVALID_VALUE;
  if (region[0] == 0 || region[1] == 0 || region[2] == 0) return CL_INVALID_VALUE;
  if (!complete_pitches(region, buffer_row, buffer_slice) ||
      !complete_pitches(region, host_row, host_slice))
    return CL_INVALID_VALUE;
  return CL_SUCCESS;
}

// clEnqueueReadBufferRect (`read`) and clEnqueueWriteBufferRect: row by row between the
// buffer's rectangle and the host's.
cl_int enqueue_rect_transfer(cl_command_queue queue_handle, cl_mem buffer_handle, bool read,
                             cl_bool blocking, const size_t* buffer_origin,
                             const size_t* host_origin, const size_t* region,
                             size_t buffer_row_pitch, size_t buffer_slice_pitch,
                             size_t host_row_pitch, size_t host_slice_pitch, uint8_t* ptr,
                             cl_uint wait_count, const cl_event* wait_list, cl_event* event) {
  Queue* queue = live<Queue>(queue_handle);
  if (queue == nullptr) return CL_INVALID_COMMAND_QUEUE;
  Mem* buffer = live<Mem>(buffer_handle);
  if (buffer == nullptr) return CL_INVALID_MEM_OBJECT;
  if (buffer->context != queue->context) return CL_INVALID_CONTEXT;
  if (ptr == nullptr) return CL_INVALID_VALUE;
  if (cl_int s = check_rect_args(buffer_origin, host_origin, region, buffer_row_pitch,
                                 buffer_slice_pitch, host_row_pitch, host_slice_pitch);
      s != CL_SUCCESS)
    return s;
  const Rect device_rect{{buffer_origin[0], buffer_origin[1], buffer_origin[2]}, buffer_row_pitch, buffer_slice_pitch};
  const Rect host_rect{{host_origin[0], host_origin[1], host_origin[2]}, host_row_pitch, host_slice_pitch};
  if (!rect_fits(device_rect, region, buffer->size)) return CL_INVALID_VALUE;
  if (cl_int s = check_wait_list(queue->context, wait_count, wait_list); s != CL_SUCCESS) return s;
  if (read ? !host_may_read(buffer) : !host_may_write(buffer)) return CL_INVALID_OPERATION;
  Ref<Mem> keep(buffer);
  const std::array<size_t, 3> extent{region[0], region[1], region[2]};
  return submit(queue, read ? CL_COMMAND_READ_BUFFER_RECT : CL_COMMAND_WRITE_BUFFER_RECT, wait_count,
                wait_list, event, blocking, [keep, read, device_rect, host_rect, extent, ptr] {
                  pull_host_memory(keep.get());
                  for (size_t z = 0; z < extent[2]; ++z)
                    for (size_t y = 0; y < extent[1]; ++y) {
                      const uint32_t address = keep->address + static_cast<uint32_t>(device_rect.offset(y, z));
                      uint8_t* host = ptr + host_rect.offset(y, z);
                      if (read)
                        device_read(address, host, extent[0]);
                      else
                        device_write(address, host, extent[0]);
                    }
                  if (!read) push_host_memory(keep.get());
                  return CL_COMPLETE;
                });
}

// The checks of clEnqueueReadBuffer (`read`) and clEnqueueWriteBuffer, in the order the
// specification lists their errors; `queue` and `buffer` receive the objects.
cl_int check_transfer(cl_command_queue queue_handle, cl_mem buffer_handle, bool read, size_t offset,
                      size_t size, const void* ptr, cl_uint wait_count, const cl_event* wait_list,
                      Queue*& queue, Mem*& buffer) {
  queue = live<Queue>(queue_handle);
  if (queue == nullptr) return CL_INVALID_COMMAND_QUEUE;
  buffer = live<Mem>(buffer_handle);
  if (buffer == nullptr) return CL_INVALID_MEM_OBJECT;
  if (buffer->context != queue->context) return CL_INVALID_CONTEXT;
  if (ptr == nullptr || size == 0 || !in_range(buffer, offset, size)) return CL_INVALID_VALUE;
  if (cl_int s = check_wait_list(queue->context, wait_count, wait_list); s != CL_SUCCESS) return s;
  if (read ? !host_may_read(buffer) : !host_may_write(buffer)) return CL_INVALID_OPERATION;
  return CL_SUCCESS;
}

cl_mem create_buffer(cl_context context_handle, cl_mem_flags flags, size_t size, void* host_ptr,
                     cl_int* errcode_ret) {
  Context* context = live<Context>(context_handle);
  if (context == nullptr) return set_error(errcode_ret, CL_INVALID_CONTEXT), nullptr;
  if (cl_int s = check_flags(flags); s != CL_SUCCESS) return set_error(errcode_ret, s), nullptr;
  if (size == 0 || size > device_max_allocation()) {
    context->notify_callback_only(
        fmt::format("clCreateBuffer: a size of {} bytes is not within 1..{} "
                    "(CL_DEVICE_MAX_MEM_ALLOC_SIZE)",
                    size, device_max_allocation()));
    return set_error(errcode_ret, CL_INVALID_BUFFER_SIZE), nullptr;
  }
  const bool wants_ptr = (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)) != 0;
  if (wants_ptr != (host_ptr != nullptr)) return set_error(errcode_ret, CL_INVALID_HOST_PTR), nullptr;
  if ((flags & kAccessFlags) == 0) flags |= CL_MEM_READ_WRITE;
  auto* mem = new (std::nothrow) Mem;
  if (mem == nullptr) return set_error(errcode_ret, CL_OUT_OF_HOST_MEMORY), nullptr;
  mem->context = context;
  mem->flags = flags;
  mem->size = size;
  mem->host_ptr = (flags & CL_MEM_USE_HOST_PTR) ? host_ptr : nullptr;
  std::string failure;  // why device memory could not be had
  {
    _cl_device_id* device = the_device();
    std::lock_guard guard(device->lock);
    try {
      mem->address = device->runtime->allocate(size);
      if (wants_ptr) device->runtime->write(mem->address, host_ptr, size);
    } catch (const std::exception& e) {
      if (mem->address != 0) device->runtime->free(mem->address);
      mem->address = 0;
      mem->context = nullptr;
      delete mem;
      failure = e.what();
    }
  }
  if (!failure.empty()) {
    context->notify_callback_only(fmt::format("clCreateBuffer of {} bytes: {}", size, failure));
    return set_error(errcode_ret, CL_MEM_OBJECT_ALLOCATION_FAILURE), nullptr;
  }
  attach(context);
  publish(mem);
  set_error(errcode_ret, CL_SUCCESS);
  return mem->handle();
}

}  // namespace

void device_write(uint32_t address, const void* source, size_t bytes) {
  if (bytes == 0) return;
  _cl_device_id* device = the_device();
  std::lock_guard guard(device->lock);
  device->runtime->write(address, source, bytes);
}

void device_read(uint32_t address, void* destination, size_t bytes) {
  if (bytes == 0) return;
  _cl_device_id* device = the_device();
  std::lock_guard guard(device->lock);
  device->runtime->read(address, destination, bytes);
}

void pull_host_memory(Mem* buffer) {
  if (buffer == nullptr || !buffer->uses_host_ptr()) return;
  Mem* root = buffer->root();
  device_write(root->address, root->host_ptr, root->size);
}

void push_host_memory(Mem* buffer) {
  if (buffer == nullptr || !buffer->uses_host_ptr()) return;
  Mem* root = buffer->root();
  device_read(root->address, root->host_ptr, root->size);
}

}  // namespace ventus::cl

using namespace ventus::cl;

extern "C" {

CL_API_ENTRY cl_mem CL_API_CALL clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size,
                                               void* host_ptr, cl_int* errcode_ret) {
  return create_buffer(context, flags, size, host_ptr, errcode_ret);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateBufferWithProperties(cl_context context,
                                                             const cl_mem_properties* properties,
                                                             cl_mem_flags flags, size_t size,
                                                             void* host_ptr, cl_int* errcode_ret) {
  if (properties != nullptr && properties[0] != 0) return set_error(errcode_ret, CL_INVALID_PROPERTY), nullptr;
  return create_buffer(context, flags, size, host_ptr, errcode_ret);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateSubBuffer(cl_mem buffer_handle, cl_mem_flags flags,
                                                  cl_buffer_create_type buffer_create_type,
                                                  const void* buffer_create_info,
                                                  cl_int* errcode_ret) {
  Mem* buffer = live<Mem>(buffer_handle);
  if (buffer == nullptr || buffer->parent != nullptr)
    return set_error(errcode_ret, CL_INVALID_MEM_OBJECT), nullptr;
  if (buffer_create_type != CL_BUFFER_CREATE_TYPE_REGION || buffer_create_info == nullptr)
    return set_error(errcode_ret, CL_INVALID_VALUE), nullptr;
  if (cl_int s = check_flags(flags); s != CL_SUCCESS || (flags & kHostPtrFlags) != 0)
    return set_error(errcode_ret, CL_INVALID_VALUE), nullptr;
  const cl_mem_flags parent = buffer->flags;
  // The access a sub-buffer asks for must be one its buffer allows.
  if (((parent & CL_MEM_WRITE_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
      ((parent & CL_MEM_READ_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))) ||
      ((parent & CL_MEM_HOST_WRITE_ONLY) && (flags & CL_MEM_HOST_READ_ONLY)) ||
      ((parent & CL_MEM_HOST_READ_ONLY) && (flags & CL_MEM_HOST_WRITE_ONLY)) ||
      ((parent & CL_MEM_HOST_NO_ACCESS) && (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY))))
    return set_error(errcode_ret, CL_INVALID_VALUE), nullptr;
  const auto* region = static_cast<const cl_buffer_region*>(buffer_create_info);
  if (region->size == 0) return set_error(errcode_ret, CL_INVALID_BUFFER_SIZE), nullptr;
  if (!in_range(buffer, region->origin, region->size))
    return set_error(errcode_ret, CL_INVALID_VALUE), nullptr;
  if (region->origin % kSubBufferAlignment != 0)
    return set_error(errcode_ret, CL_MISALIGNED_SUB_BUFFER_OFFSET), nullptr;
  if ((flags & kAccessFlags) == 0) flags |= parent & kAccessFlags;
  if ((flags & kHostAccessFlags) == 0) flags |= parent & kHostAccessFlags;
  flags |= parent & kHostPtrFlags;
  auto* mem = new (std::nothrow) Mem;
  if (mem == nullptr) return set_error(errcode_ret, CL_OUT_OF_HOST_MEMORY), nullptr;
  mem->context = buffer->context;
  mem->flags = flags;
  mem->size = region->size;
  mem->parent = buffer;
  mem->origin = region->origin;
  mem->address = buffer->address + static_cast<uint32_t>(region->origin);
  if (buffer->host_ptr) mem->host_ptr = static_cast<uint8_t*>(buffer->host_ptr) + region->origin;
  attach(buffer);
  attach(buffer->context);
  publish(mem);
  set_error(errcode_ret, CL_SUCCESS);
  return mem->handle();
}

CL_API_ENTRY cl_int CL_API_CALL clRetainMemObject(cl_mem memobj) {
  return retain_handle(memobj, Kind::mem, CL_INVALID_MEM_OBJECT);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseMemObject(cl_mem memobj) {
  return release_handle(memobj, Kind::mem, CL_INVALID_MEM_OBJECT);
}

CL_API_ENTRY cl_int CL_API_CALL clSetMemObjectDestructorCallback(
    cl_mem memobj_handle, void(CL_CALLBACK* pfn_notify)(cl_mem, void*), void* user_data) {
  Mem* memobj = live<Mem>(memobj_handle);
  if (memobj == nullptr) return CL_INVALID_MEM_OBJECT;
  if (pfn_notify == nullptr) return CL_INVALID_VALUE;
  std::lock_guard guard(memobj->lock);
  memobj->destructor_callbacks.emplace_back(pfn_notify, user_data);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetMemObjectInfo(cl_mem memobj_handle, cl_mem_info param_name,
                                                   size_t param_value_size, void* param_value,
                                                   size_t* param_value_size_ret) {
  Mem* memobj = live<Mem>(memobj_handle);
  if (memobj == nullptr) return CL_INVALID_MEM_OBJECT;
  const size_t n = param_value_size;
  void* v = param_value;
  size_t* r = param_value_size_ret;
  switch (param_name) {
    case CL_MEM_TYPE:
      return info_value(n, v, r, cl_mem_object_type{CL_MEM_OBJECT_BUFFER});
    case CL_MEM_FLAGS:
      return info_value(n, v, r, memobj->flags);
    case CL_MEM_SIZE:
      return info_value(n, v, r, memobj->size);
    case CL_MEM_HOST_PTR:
      return info_value(n, v, r, memobj->host_ptr);
    case CL_MEM_MAP_COUNT: {
      std::lock_guard guard(memobj->lock);
      return info_value(n, v, r, static_cast<cl_uint>(memobj->mappings.size()));
    }
    case CL_MEM_REFERENCE_COUNT: return info_value(n, v, r, reference_count(memobj));
    case CL_MEM_CONTEXT: return info_value(n, v, r, memobj->context->handle());
    case CL_MEM_ASSOCIATED_MEMOBJECT: return info_value(n, v, r, handle_of(memobj->parent));
    case CL_MEM_OFFSET:
      return info_value(n, v, r, memobj->origin);
    default:
      return CL_INVALID_VALUE;
  }
}

// ---- transfers ----

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue queue_handle,
                                                    cl_mem buffer_handle, cl_bool blocking_read,
                                                    size_t offset, size_t size, void* ptr,
                                                    cl_uint num_events_in_wait_list,
                                                    const cl_event* event_wait_list,
                                                    cl_event* event) {
  Queue* queue = nullptr;
  Mem* buffer = nullptr;
  if (cl_int s = check_transfer(queue_handle, buffer_handle, true, offset, size, ptr,
                                num_events_in_wait_list, event_wait_list, queue, buffer);
      s != CL_SUCCESS)
    return s;
  Ref<Mem> keep(buffer);
  return submit(queue, CL_COMMAND_READ_BUFFER, num_events_in_wait_list, event_wait_list, event,
                blocking_read, [keep, offset, size, ptr] {
                  pull_host_memory(keep.get());
                  device_read(keep->address + static_cast<uint32_t>(offset), ptr, size);
                  return CL_COMPLETE;
                });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue queue_handle,
                                                     cl_mem buffer_handle, cl_bool blocking_write,
                                                     size_t offset, size_t size, const void* ptr,
                                                     cl_uint num_events_in_wait_list,
                                                     const cl_event* event_wait_list,
                                                     cl_event* event) {
  Queue* queue = nullptr;
  Mem* buffer = nullptr;
  if (cl_int s = check_transfer(queue_handle, buffer_handle, false, offset, size, ptr,
                                num_events_in_wait_list, event_wait_list, queue, buffer);
      s != CL_SUCCESS)
    return s;
  Ref<Mem> keep(buffer);
  return submit(queue, CL_COMMAND_WRITE_BUFFER, num_events_in_wait_list, event_wait_list, event,
                blocking_write, [keep, offset, size, ptr] {
                  pull_host_memory(keep.get());
                  device_write(keep->address + static_cast<uint32_t>(offset), ptr, size);
                  push_host_memory(keep.get());
                  return CL_COMPLETE;
                });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue queue_handle,
                                                    cl_mem src_handle, cl_mem dst_handle,
                                                    size_t src_offset, size_t dst_offset,
                                                    size_t size, cl_uint num_events_in_wait_list,
                                                    const cl_event* event_wait_list,
                                                    cl_event* event) {
  Queue* queue = live<Queue>(queue_handle);
  if (queue == nullptr) return CL_INVALID_COMMAND_QUEUE;
  Mem* src_buffer = live<Mem>(src_handle);
  Mem* dst_buffer = live<Mem>(dst_handle);
  if (src_buffer == nullptr || dst_buffer == nullptr) return CL_INVALID_MEM_OBJECT;
  if (src_buffer->context != queue->context || dst_buffer->context != queue->context)
    return CL_INVALID_CONTEXT;
  if (size == 0 || !in_range(src_buffer, src_offset, size) || !in_range(dst_buffer, dst_offset, size))
    return CL_INVALID_VALUE;
  if (cl_int s = check_wait_list(queue->context, num_events_in_wait_list, event_wait_list); s != CL_SUCCESS)
    return s;
  const uint64_t src = src_buffer->address + uint64_t{src_offset};
  const uint64_t dst = dst_buffer->address + uint64_t{dst_offset};
  if (src_buffer->root() == dst_buffer->root() && src < dst + size && dst < src + size)
    return CL_MEM_COPY_OVERLAP;
  Ref<Mem> keep_src(src_buffer), keep_dst(dst_buffer);
  return submit(queue, CL_COMMAND_COPY_BUFFER, num_events_in_wait_list, event_wait_list, event,
                false, [keep_src, keep_dst, src, dst, size] {
                  pull_host_memory(keep_src.get());
                  pull_host_memory(keep_dst.get());
                  std::vector<uint8_t> bytes(size);
                  device_read(static_cast<uint32_t>(src), bytes.data(), size);
                  device_write(static_cast<uint32_t>(dst), bytes.data(), size);
                  push_host_memory(keep_dst.get());
                  return CL_COMPLETE;
                });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue queue_handle,
                                                    cl_mem buffer_handle, const void* pattern,
                                                    size_t pattern_size, size_t offset, size_t size,
                                                    cl_uint num_events_in_wait_list,
                                                    const cl_event* event_wait_list,
                                                    cl_event* event) {
  Queue* queue = live<Queue>(queue_handle);
  if (queue == nullptr) return CL_INVALID_COMMAND_QUEUE;
  Mem* buffer = live<Mem>(buffer_handle);
  if (buffer == nullptr) return CL_INVALID_MEM_OBJECT;
  if (buffer->context != queue->context) return CL_INVALID_CONTEXT;
  const bool pattern_ok = pattern != nullptr && pattern_size != 0 && pattern_size <= 128 &&
                          (pattern_size & (pattern_size - 1)) == 0;
  if (!pattern_ok || offset % pattern_size != 0 || size % pattern_size != 0 ||
      !in_range(buffer, offset, size))
    return CL_INVALID_VALUE;
  if (cl_int s = check_wait_list(queue->context, num_events_in_wait_list, event_wait_list); s != CL_SUCCESS)
    return s;
  std::vector<uint8_t> bytes;
  try {
    bytes.resize(size);
  } catch (const std::bad_alloc&) {
    return CL_OUT_OF_HOST_MEMORY;
  }
  for (size_t i = 0; i < size; i += pattern_size) std::memcpy(bytes.data() + i, pattern, pattern_size);
  Ref<Mem> keep(buffer);
  return submit(queue, CL_COMMAND_FILL_BUFFER, num_events_in_wait_list, event_wait_list, event,
                false, [keep, offset, bytes = std::move(bytes)] {
                  pull_host_memory(keep.get());
                  device_write(keep->address + static_cast<uint32_t>(offset), bytes.data(), bytes.size());
                  push_host_memory(keep.get());
                  return CL_COMPLETE;
                });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBufferRect(
    cl_command_queue queue, cl_mem buffer, cl_bool blocking_read, const size_t* buffer_origin,
    const size_t* host_origin, const size_t* region, size_t buffer_row_pitch,
    size_t buffer_slice_pitch, size_t host_row_pitch, size_t host_slice_pitch, void* ptr,
    cl_uint num_events_in_wait_list, const cl_event* event_wait_list, cl_event* event) {
  return enqueue_rect_transfer(queue, buffer, true, blocking_read, buffer_origin, host_origin, region,
                               buffer_row_pitch, buffer_slice_pitch, host_row_pitch, host_slice_pitch,
                               static_cast<uint8_t*>(ptr), num_events_in_wait_list, event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBufferRect(
    cl_command_queue queue, cl_mem buffer, cl_bool blocking_write, const size_t* buffer_origin,
    const size_t* host_origin, const size_t* region, size_t buffer_row_pitch,
    size_t buffer_slice_pitch, size_t host_row_pitch, size_t host_slice_pitch, const void* ptr,
    cl_uint num_events_in_wait_list, const cl_event* event_wait_list, cl_event* event) {
  // The pointer is only read: the write direction never stores through it.
  return enqueue_rect_transfer(queue, buffer, false, blocking_write, buffer_origin, host_origin, region,
                               buffer_row_pitch, buffer_slice_pitch, host_row_pitch, host_slice_pitch,
                               static_cast<uint8_t*>(const_cast<void*>(ptr)), num_events_in_wait_list,
                               event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferRect(
    cl_command_queue queue_handle, cl_mem src_handle, cl_mem dst_handle, const size_t* src_origin,
    const size_t* dst_origin, const size_t* region, size_t src_row_pitch, size_t src_slice_pitch,
    size_t dst_row_pitch, size_t dst_slice_pitch, cl_uint num_events_in_wait_list,
    const cl_event* event_wait_list, cl_event* event) {
  Queue* queue = live<Queue>(queue_handle);
  if (queue == nullptr) return CL_INVALID_COMMAND_QUEUE;
  Mem* src_buffer = live<Mem>(src_handle);
  Mem* dst_buffer = live<Mem>(dst_handle);
  if (src_buffer == nullptr || dst_buffer == nullptr) return CL_INVALID_MEM_OBJECT;
  if (src_buffer->context != queue->context || dst_buffer->context != queue->context)
    return CL_INVALID_CONTEXT;
  if (cl_int s = check_rect_args(src_origin, dst_origin, region, src_row_pitch, src_slice_pitch,
                                 dst_row_pitch, dst_slice_pitch);
      s != CL_SUCCESS)
    return s;
  const Rect src_rect{{src_origin[0], src_origin[1], src_origin[2]}, src_row_pitch, src_slice_pitch};
  const Rect dst_rect{{dst_origin[0], dst_origin[1], dst_origin[2]}, dst_row_pitch, dst_slice_pitch};
  if (!rect_fits(src_rect, region, src_buffer->size) || !rect_fits(dst_rect, region, dst_buffer->size))
    return CL_INVALID_VALUE;
  if (src_buffer->root() == dst_buffer->root()) {
    // Same buffer: the spec asks for equal pitches and disjoint regions, positions taken
    // from the root buffer's start (sub-buffers).
    if (src_row_pitch != dst_row_pitch || src_slice_pitch != dst_slice_pitch) return CL_INVALID_VALUE;
    Rect src_in_root = src_rect, dst_in_root = dst_rect;
    src_in_root.origin[0] += src_buffer->address - src_buffer->root()->address;
    dst_in_root.origin[0] += dst_buffer->address - dst_buffer->root()->address;
    if (rects_overlap(src_in_root, dst_in_root, region)) return CL_MEM_COPY_OVERLAP;
  }
  if (cl_int s = check_wait_list(queue->context, num_events_in_wait_list, event_wait_list); s != CL_SUCCESS)
    return s;
  Ref<Mem> keep_src(src_buffer), keep_dst(dst_buffer);
  const std::array<size_t, 3> extent{region[0], region[1], region[2]};
  return submit(queue, CL_COMMAND_COPY_BUFFER_RECT, num_events_in_wait_list, event_wait_list, event,
                false, [keep_src, keep_dst, src_rect, dst_rect, extent] {
                  pull_host_memory(keep_src.get());
                  pull_host_memory(keep_dst.get());
                  std::vector<uint8_t> row(extent[0]);
                  for (size_t z = 0; z < extent[2]; ++z)
                    for (size_t y = 0; y < extent[1]; ++y) {
                      device_read(keep_src->address + static_cast<uint32_t>(src_rect.offset(y, z)), row.data(), row.size());
                      device_write(keep_dst->address + static_cast<uint32_t>(dst_rect.offset(y, z)), row.data(), row.size());
                    }
                  push_host_memory(keep_dst.get());
                  return CL_COMPLETE;
                });
}

// ---- map / unmap ----

CL_API_ENTRY void* CL_API_CALL clEnqueueMapBuffer(cl_command_queue queue_handle,
                                                  cl_mem buffer_handle, cl_bool blocking_map,
                                                  cl_map_flags map_flags, size_t offset,
                                                  size_t size, cl_uint num_events_in_wait_list,
                                                  const cl_event* event_wait_list, cl_event* event,
                                                  cl_int* errcode_ret) {
  Queue* queue = live<Queue>(queue_handle);
  if (queue == nullptr) return set_error(errcode_ret, CL_INVALID_COMMAND_QUEUE), nullptr;
  Mem* buffer = live<Mem>(buffer_handle);
  if (buffer == nullptr) return set_error(errcode_ret, CL_INVALID_MEM_OBJECT), nullptr;
  if (buffer->context != queue->context) return set_error(errcode_ret, CL_INVALID_CONTEXT), nullptr;
  constexpr cl_map_flags kKnown = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
  if ((map_flags & ~kKnown) != 0 ||
      ((map_flags & CL_MAP_WRITE_INVALIDATE_REGION) && (map_flags & (CL_MAP_READ | CL_MAP_WRITE))) ||
      size == 0 || !in_range(buffer, offset, size))
    return set_error(errcode_ret, CL_INVALID_VALUE), nullptr;
  if (cl_int s = check_wait_list(queue->context, num_events_in_wait_list, event_wait_list); s != CL_SUCCESS)
    return set_error(errcode_ret, s), nullptr;
  const bool reads = (map_flags & CL_MAP_READ) != 0;
  const bool writes = (map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) != 0;
  if ((reads && !host_may_read(buffer)) || (writes && !host_may_write(buffer)))
    return set_error(errcode_ret, CL_INVALID_OPERATION), nullptr;
  uint8_t* pointer = nullptr;
  try {
    pointer = buffer->host_mirror() + offset;
  } catch (const std::bad_alloc&) {
    return set_error(errcode_ret, CL_MAP_FAILURE), nullptr;
  }
  {
    std::lock_guard guard(buffer->lock);
    buffer->mappings.push_back({pointer, offset, size, map_flags});
  }
  Ref<Mem> keep(buffer);
  const bool fetch = (map_flags & CL_MAP_WRITE_INVALIDATE_REGION) == 0 && !buffer->uses_host_ptr();
  cl_int status = submit(queue, CL_COMMAND_MAP_BUFFER, num_events_in_wait_list, event_wait_list,
                         event, blocking_map, [keep, offset, size, pointer, fetch] {
                           if (fetch) device_read(keep->address + static_cast<uint32_t>(offset), pointer, size);
                           return CL_COMPLETE;
                         });
  set_error(errcode_ret, status);
  return status == CL_SUCCESS ? pointer : nullptr;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue queue_handle,
                                                        cl_mem memobj_handle, void* mapped_ptr,
                                                        cl_uint num_events_in_wait_list,
                                                        const cl_event* event_wait_list,
                                                        cl_event* event) {
  Queue* queue = live<Queue>(queue_handle);
  if (queue == nullptr) return CL_INVALID_COMMAND_QUEUE;
  Mem* memobj = live<Mem>(memobj_handle);
  if (memobj == nullptr) return CL_INVALID_MEM_OBJECT;
  if (memobj->context != queue->context) return CL_INVALID_CONTEXT;
  if (cl_int s = check_wait_list(queue->context, num_events_in_wait_list, event_wait_list); s != CL_SUCCESS)
    return s;
  Mem::Mapping mapping{};
  {
    std::lock_guard guard(memobj->lock);
    auto it = std::find_if(memobj->mappings.begin(), memobj->mappings.end(),
                           [&](const Mem::Mapping& m) { return m.pointer == mapped_ptr; });
    if (mapped_ptr == nullptr || it == memobj->mappings.end()) return CL_INVALID_VALUE;
    mapping = *it;
    memobj->mappings.erase(it);
  }
  Ref<Mem> keep(memobj);
  const bool store = (mapping.flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) != 0;
  return submit(queue, CL_COMMAND_UNMAP_MEM_OBJECT, num_events_in_wait_list, event_wait_list,
                event, false, [keep, mapping, store] {
                  if (store)
                    device_write(keep->address + static_cast<uint32_t>(mapping.offset), mapping.pointer, mapping.size);
                  return CL_COMPLETE;
                });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMigrateMemObjects(
    cl_command_queue queue_handle, cl_uint num_mem_objects, const cl_mem* mem_objects,
    cl_mem_migration_flags flags, cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
    cl_event* event) {
  Queue* queue = live<Queue>(queue_handle);
  if (queue == nullptr) return CL_INVALID_COMMAND_QUEUE;
  if (num_mem_objects == 0 || mem_objects == nullptr) return CL_INVALID_VALUE;
  if ((flags & ~cl_mem_migration_flags{CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED}) != 0)
    return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num_mem_objects; ++i) {
    Mem* m = live<Mem>(mem_objects[i]);
    if (m == nullptr) return CL_INVALID_MEM_OBJECT;
    if (m->context != queue->context) return CL_INVALID_CONTEXT;
  }
  if (cl_int s = check_wait_list(queue->context, num_events_in_wait_list, event_wait_list); s != CL_SUCCESS)
    return s;
  // One device, whose memory holds every buffer: nothing moves.
  return submit(queue, CL_COMMAND_MIGRATE_MEM_OBJECTS, num_events_in_wait_list, event_wait_list,
                event, false, [] { return CL_COMPLETE; });
}

// ---- images and samplers: the device has none (CL_DEVICE_IMAGE_SUPPORT is CL_FALSE) ----

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage(cl_context context, cl_mem_flags, const cl_image_format*,
                                              const cl_image_desc*, void*, cl_int* errcode_ret) {
  set_error(errcode_ret, is_live(context, Kind::context) ? CL_INVALID_OPERATION : CL_INVALID_CONTEXT);
  return nullptr;
}
CL_API_ENTRY cl_mem CL_API_CALL clCreateImageWithProperties(cl_context context, const cl_mem_properties*,
                                                            cl_mem_flags, const cl_image_format*,
                                                            const cl_image_desc*, void*, cl_int* errcode_ret) {
  set_error(errcode_ret, is_live(context, Kind::context) ? CL_INVALID_OPERATION : CL_INVALID_CONTEXT);
  return nullptr;
}
CL_API_ENTRY cl_mem CL_API_CALL clCreateImage2D(cl_context context, cl_mem_flags, const cl_image_format*,
                                                size_t, size_t, size_t, void*, cl_int* errcode_ret) {
  set_error(errcode_ret, is_live(context, Kind::context) ? CL_INVALID_OPERATION : CL_INVALID_CONTEXT);
  return nullptr;
}
CL_API_ENTRY cl_mem CL_API_CALL clCreateImage3D(cl_context context, cl_mem_flags, const cl_image_format*,
                                                size_t, size_t, size_t, size_t, size_t, void*,
                                                cl_int* errcode_ret) {
  set_error(errcode_ret, is_live(context, Kind::context) ? CL_INVALID_OPERATION : CL_INVALID_CONTEXT);
  return nullptr;
}
CL_API_ENTRY cl_int CL_API_CALL clGetSupportedImageFormats(cl_context context_handle, cl_mem_flags,
                                                           cl_mem_object_type, cl_uint,
                                                           cl_image_format*,
                                                           cl_uint* num_image_formats) {
  Context* context = live<Context>(context_handle);
  if (context == nullptr) return CL_INVALID_CONTEXT;
  if (num_image_formats != nullptr) *num_image_formats = 0;
  return CL_SUCCESS;
}
CL_API_ENTRY cl_int CL_API_CALL clGetImageInfo(cl_mem, cl_image_info, size_t, void*, size_t*) {
  return CL_INVALID_MEM_OBJECT;  // no image can exist
}
CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue queue, cl_mem, cl_bool, const size_t*,
                                                   const size_t*, size_t, size_t, void*, cl_uint,
                                                   const cl_event*, cl_event*) {
  return is_live(queue, Kind::queue) ? CL_INVALID_MEM_OBJECT : CL_INVALID_COMMAND_QUEUE;
}
CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteImage(cl_command_queue queue, cl_mem, cl_bool, const size_t*,
                                                    const size_t*, size_t, size_t, const void*, cl_uint,
                                                    const cl_event*, cl_event*) {
  return is_live(queue, Kind::queue) ? CL_INVALID_MEM_OBJECT : CL_INVALID_COMMAND_QUEUE;
}
CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue queue, cl_mem, const void*, const size_t*,
                                                   const size_t*, cl_uint, const cl_event*, cl_event*) {
  return is_live(queue, Kind::queue) ? CL_INVALID_MEM_OBJECT : CL_INVALID_COMMAND_QUEUE;
}
CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue queue, cl_mem, cl_mem, const size_t*,
                                                   const size_t*, const size_t*, cl_uint, const cl_event*,
                                                   cl_event*) {
  return is_live(queue, Kind::queue) ? CL_INVALID_MEM_OBJECT : CL_INVALID_COMMAND_QUEUE;
}
CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImageToBuffer(cl_command_queue queue, cl_mem, cl_mem, const size_t*,
                                                           const size_t*, size_t, cl_uint, const cl_event*,
                                                           cl_event*) {
  return is_live(queue, Kind::queue) ? CL_INVALID_MEM_OBJECT : CL_INVALID_COMMAND_QUEUE;
}
CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferToImage(cl_command_queue queue, cl_mem, cl_mem, size_t,
                                                           const size_t*, const size_t*, cl_uint,
                                                           const cl_event*, cl_event*) {
  return is_live(queue, Kind::queue) ? CL_INVALID_MEM_OBJECT : CL_INVALID_COMMAND_QUEUE;
}
CL_API_ENTRY void* CL_API_CALL clEnqueueMapImage(cl_command_queue queue, cl_mem, cl_bool, cl_map_flags,
                                                 const size_t*, const size_t*, size_t*, size_t*, cl_uint,
                                                 const cl_event*, cl_event*, cl_int* errcode_ret) {
  set_error(errcode_ret, is_live(queue, Kind::queue) ? CL_INVALID_MEM_OBJECT : CL_INVALID_COMMAND_QUEUE);
  return nullptr;
}
CL_API_ENTRY cl_sampler CL_API_CALL clCreateSampler(cl_context context, cl_bool, cl_addressing_mode,
                                                    cl_filter_mode, cl_int* errcode_ret) {
  set_error(errcode_ret, is_live(context, Kind::context) ? CL_INVALID_OPERATION : CL_INVALID_CONTEXT);
  return nullptr;
}
CL_API_ENTRY cl_sampler CL_API_CALL clCreateSamplerWithProperties(cl_context context,
                                                                  const cl_sampler_properties*,
                                                                  cl_int* errcode_ret) {
  set_error(errcode_ret, is_live(context, Kind::context) ? CL_INVALID_OPERATION : CL_INVALID_CONTEXT);
  return nullptr;
}
CL_API_ENTRY cl_int CL_API_CALL clRetainSampler(cl_sampler) {
  return CL_INVALID_SAMPLER;
}
CL_API_ENTRY cl_int CL_API_CALL clReleaseSampler(cl_sampler) {
  return CL_INVALID_SAMPLER;
}
CL_API_ENTRY cl_int CL_API_CALL clGetSamplerInfo(cl_sampler, cl_sampler_info, size_t, void*, size_t*) {
  return CL_INVALID_SAMPLER;
}

}  // extern "C"
