// Shared by the API files: the device's limits, command submission, and the transfers
// between host memory and device memory that commands make.
#pragma once

#include <functional>
#include <string_view>

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
// The same, for work that needs its command's event (a kernel records its simulated time).
cl_int submit(Queue* queue, cl_command_type type, cl_uint wait_count, const cl_event* wait_list,
              cl_event* event_out, bool blocking, std::function<cl_int(Event&)> work);

// VENTUS_TIMING, VENTUS_TIMING_SET and VENTUS_STATS_JSON into the device (timing.cpp); a
// bad value is reported on stderr and kept in device.timing_error.
void configure_timing(_cl_device_id& device);
// After a timed launch, under the device's lock: the launch's simulated time in ns (cycles at
// the configuration's clock, rounded to the nearest ns); rewrites VENTUS_STATS_JSON.
cl_ulong record_timed_launch(_cl_device_id& device, std::string_view kernel,
                             const timing::LaunchTiming& timing);

// Device memory, under the device's lock.
void device_write(uint32_t address, const void* source, size_t bytes);
void device_read(uint32_t address, void* destination, size_t bytes);

// CL_MEM_USE_HOST_PTR buffers behave as if the device worked in the application's memory:
// a command copies it in before it touches the buffer (`pull`) and out after it may have
// changed it (`push`). No-ops for other buffers.
void pull_host_memory(Mem* buffer);
void push_host_memory(Mem* buffer);

}  // namespace ventus::cl
