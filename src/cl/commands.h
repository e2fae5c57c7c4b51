// Shared by the API files: the device's limits, command submission, and the transfers
// between host memory and device memory that commands make.
#pragma once

#include <functional>

#include "objects.h"

namespace ventus::cl {

// Each warp's stack in an SM's local memory, below the workgroup's local data (rt::launch).
using abi::kWarpStackBytes;

// What the device reports (api_platform.cpp).
size_t device_max_work_group_size();
cl_ulong device_local_memory();
cl_ulong device_global_memory();
cl_ulong device_max_allocation();

// CL_INVALID_EVENT_WAIT_LIST / CL_INVALID_CONTEXT / CL_SUCCESS for a command's wait list.
cl_int check_wait_list(Context* context, cl_uint count, const cl_event* events);

// Queues `work` on `queue` after the wait list; hands out its event through `event_out`
// (when not NULL). `blocking`: returns when the command has run, with
// CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if it (or what it waited for) failed.
// Arguments must have been checked: this only fails for lack of host memory.
cl_int submit(Queue* queue, cl_command_type type, cl_uint wait_count, const cl_event* wait_list,
              cl_event* event_out, bool blocking, std::function<cl_int()> work);

// Device memory, under the device's lock.
void device_write(uint32_t address, const void* source, size_t bytes);
void device_read(uint32_t address, void* destination, size_t bytes);

// CL_MEM_USE_HOST_PTR buffers behave as if the device worked in the application's memory:
// a command copies it in before it touches the buffer (`pull`) and out after it may have
// changed it (`push`). No-ops for other buffers.
void pull_host_memory(Mem* buffer);
void push_host_memory(Mem* buffer);

}  // namespace ventus::cl
