/* The Ventus driver API (C).
 *
 * Names, signatures, the meta_data layout and the caps ids follow the public Ventus driver
 * (THU-DSP-LAB ventus-driver, as the pocl "ventus" device calls it), so that an existing
 * Ventus OpenCL runtime can link against libventus.so. The device behind it is this
 * project's simulator (include/ventus/device.h). Every function returns 0 on success and
 * -1 on failure; vt_ext_last_error() then says where and why.
 *
 * Functions prefixed vt_ext_ are extensions of this project (configuration, diagnostics,
 * statistics, print output and tracing); the public driver has no equivalent.
 * docs/driver.md describes the memory map, the buffers a launch needs and the print buffer.
 */
#ifndef VENTUS_VENTUS_H
#define VENTUS_VENTUS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
#include <queue>
typedef std::queue<int> vt_kernel_queue;
extern "C" {
#else
/* C callers of vt_finish_all_kernel pass a std::queue<int> created on the C++ side. */
typedef struct vt_kernel_queue vt_kernel_queue;
#endif

typedef void* vt_device_h;
typedef void* vt_buffer_h;

#define MAX_TIMEOUT (60 * 60 * 1000) /* 1 hour, in milliseconds (vt_ready_wait) */

/* vt_dev_caps ids (values of the public driver; MAX_WG_SLOTS is placed after them). */
#define VT_CAPS_VERSION 0x0
#define VT_CAPS_MAX_CORES 0x1        /* SMs */
#define VT_CAPS_MAX_WARPS 0x2        /* warp slots per SM */
#define VT_CAPS_MAX_THREADS 0x3      /* threads (lanes) per warp */
#define VT_CAPS_CACHE_LINE_SIZE 0x4  /* bytes */
#define VT_CAPS_LOCAL_MEM_SIZE 0x5   /* local memory bytes per SM */
#define VT_CAPS_ALLOC_BASE_ADDR 0x6  /* first buffer address: 0x90000000 */
#define VT_CAPS_KERNEL_BASE_ADDR 0x7 /* code base: 0x80000000 */
#define VT_CAPS_MAX_WG_SLOTS 0x8     /* workgroup slots per SM */

/* Buffer types of vt_buf_alloc (recorded; all device memory is read-write). */
#define VT_BUF_READ_ONLY 0
#define VT_BUF_READ_WRITE 1

/* What vt_start needs to run a kernel: the public driver's meta_data, field for field
 * (all uint64_t). Execution starts at the uploaded ELF's entry (the start code,
 * normally 0x80000000), which reads the kernel entry and arguments from the 16-word
 * kernel metadata buffer at metaDataBaseAddr (CSR_KNL). */
struct meta_data {
  uint64_t kernel_id;
  uint64_t kernel_size[3];   /* workgroups per dimension */
  uint64_t wf_size;          /* threads per warp */
  uint64_t wg_size;          /* warps per workgroup */
  uint64_t metaDataBaseAddr; /* the kernel metadata buffer: CSR_KNL */
  uint64_t ldsSize;          /* local memory bytes per workgroup */
  uint64_t pdsSize;          /* private memory bytes per thread */
  uint64_t sgprUsage;        /* scalar registers per warp (multiple of 4) */
  uint64_t vgprUsage;        /* vector registers per thread (multiple of 4) */
  uint64_t pdsBaseAddr;      /* private memory: kernel_size * wg_size * wf_size * pdsSize bytes
                                always suffice (the device needs those of its resident
                                workgroups only, docs/simulator.md "Private memory") */
};

int vt_dev_open(vt_device_h* hdevice);
/* Closes the device: a running kernel is cancelled (vt_ext_cancel), queued ones dropped. */
int vt_dev_close(vt_device_h hdevice);
int vt_dev_caps(vt_device_h* hdevice, uint64_t caps_id, uint64_t* value);

/* Address spaces per task: one flat address space is shared by all tasks here, so these
 * only check their arguments; vt_root_mem_free releases the task's buffers. */
int vt_root_mem_alloc(vt_device_h hdevice, int taskID);
int vt_root_mem_free(vt_device_h hdevice, int taskID);

/* Allocates size bytes (whole 4 KiB pages, zero-filled, from 0x90000000 up, never over the
 * uploaded program; docs/driver.md, "Buffer allocation"); *vaddr receives the device
 * address. */
int vt_buf_alloc(vt_device_h hdevice, uint64_t size, uint64_t* vaddr, int BUF_TYPE, uint64_t taskID,
                 uint64_t kernelID);
/* Releases every buffer of taskID (as the public driver does). */
int vt_buf_free(vt_device_h hdevice, uint64_t size, uint64_t* vaddr, uint64_t taskID,
                uint64_t kernelID);
/* Releases the buffer that starts at *vaddr. */
int vt_one_buf_free(vt_device_h hdevice, uint64_t size, uint64_t* vaddr, uint64_t taskID,
                    uint64_t kernelID);

/* Copies between host and device memory. The range must lie in allocated buffers or the
 * uploaded program. A copy waits for the kernels started before it (until they end or a
 * workgroup runs out of the instruction budget; vt_ext_cancel stops them). */
int vt_copy_to_dev(vt_device_h hdevice, uint64_t dev_vaddr, const void* src_addr, uint64_t size,
                   uint64_t taskID, uint64_t kernelID);
int vt_copy_from_dev(vt_device_h hdevice, uint64_t dev_vaddr, void* dst_addr, uint64_t size,
                     uint64_t taskID, uint64_t kernelID);

/* Queues a launch described by a struct meta_data and returns; kernels run in order. */
int vt_start(vt_device_h hdevice, void* metaData, uint64_t taskID);
/* Waits up to timeout milliseconds until every queued kernel has finished. Returns -1 on a
 * timeout (the kernels go on) or when a kernel faulted (the error says where; kernels
 * queued after it are dropped). The device stays usable. */
int vt_ready_wait(vt_device_h hdevice, uint64_t timeout);
/* Runs every queued kernel to completion and appends (taskID << 4 | kernel_id) of each
 * finished one to *finished_list. */
int vt_finish_all_kernel(vt_device_h hdevice, vt_kernel_queue* finished_list);

/* Loads a kernel program. An ELF32 RISC-V executable (from `ventus as` or the Ventus
 * compiler) has its loadable sections copied to their addresses; other bytes are taken
 * as a raw code image for 0x80000000. */
int vt_upload_kernel_bytes(vt_device_h device, const void* content, uint64_t size, int taskID);
int vt_upload_kernel_file(vt_device_h device, const char* filename, int kernelID);

/* Writes the statistics of the last finished launch. */
int vt_dump_perf(vt_device_h device, FILE* stream);

/* ---- Extensions of this project ---- */

/* Device configuration (defaults: vt_ext_default_config). */
typedef struct vt_ext_config {
  uint32_t num_sms;
  uint32_t warp_slots_per_sm;
  uint32_t max_threads_per_warp;
  uint32_t vgprs_per_sm;
  uint32_t sgprs_per_sm;
  uint32_t lds_bytes_per_sm;
  uint32_t max_workgroups_per_sm;
  uint64_t instruction_budget; /* warp instructions per workgroup; 0 = unlimited */
  uint32_t host_threads;       /* workgroup slots simulated in parallel */
} vt_ext_config;

void vt_ext_default_config(vt_ext_config* config);
int vt_ext_dev_open_config(vt_device_h* hdevice, const vt_ext_config* config);

/* The message of the last failure on this device (hdevice NULL: of the last failure
 * without a device in this thread, e.g. vt_dev_open). Never NULL; "" when none. */
const char* vt_ext_last_error(vt_device_h hdevice);

typedef struct vt_ext_launch_stats {
  uint64_t warp_instructions;
  uint64_t thread_instructions; /* active lanes of vector instructions + scalar instructions */
  uint64_t divergences;         /* vector branches that split a warp */
  uint64_t barriers;            /* barrier instructions executed (per warp) */
  uint64_t workgroups;
  double seconds; /* host wall time */
} vt_ext_launch_stats;

/* Statistics of the last finished launch. */
int vt_ext_get_launch_stats(vt_device_h hdevice, vt_ext_launch_stats* stats);

/* Address of a symbol (kernel) of the uploaded ELF program. */
int vt_ext_symbol_address(vt_device_h hdevice, const char* name, uint64_t* address);

/* Kernel printf output (docs/driver.md, "Print buffer"): each formatted text is passed to
 * callback; NULL restores the default (stdout). */
typedef void (*vt_ext_text_callback)(const char* text, void* user);
int vt_ext_set_print_callback(vt_device_h hdevice, vt_ext_text_callback callback, void* user);
/* Commit log of the following launches, one line per call (docs/trace.md); NULL: off. */
int vt_ext_set_trace_callback(vt_device_h hdevice, vt_ext_text_callback callback, void* user);

/* Why the last vt_start on this device was refused (vt_start returned -1 because the device
 * cannot run the launch, vt_ext_last_error says so in words): the limit (VT_EXT_LIMIT_*),
 * what the launch asks for and what the device has, in the limit's unit (warps, registers,
 * bytes, workgroups, threads). limit is VT_EXT_LIMIT_NONE after a vt_start that was not
 * refused for a limit. */
#define VT_EXT_LIMIT_NONE 0
#define VT_EXT_LIMIT_GRID 6             /* workgroups: 1 to 2^32 - 1 */
#define VT_EXT_LIMIT_THREADS_PER_WARP 7 /* wf_size */
#define VT_EXT_LIMIT_WORK_GROUP_SIZE 5  /* wg_size: warps */
#define VT_EXT_LIMIT_SCALAR_REGISTERS 8 /* wg_size x sgprUsage */
#define VT_EXT_LIMIT_VECTOR_REGISTERS 9 /* wg_size x vgprUsage */
#define VT_EXT_LIMIT_LOCAL_MEMORY 10    /* ldsSize */
#define VT_EXT_LIMIT_PRIVATE_MEMORY 11  /* from pdsBaseAddr: bytes of address space */
typedef struct vt_ext_launch_error {
  uint32_t limit;
  uint64_t requested;
  uint64_t available;
} vt_ext_launch_error;
int vt_ext_get_launch_error(vt_device_h hdevice, vt_ext_launch_error* error);

/* The cycle model (docs/timing.md) for the following launches: a preset ("verilog-release",
 * "chisel-master") or a configuration file (JSON, as `ventus run --timing FILE` reads);
 * NULL or "": functional only, the default. Results are the same either way. */
int vt_ext_set_timing(vt_device_h hdevice, const char* preset_or_file);
/* Overrides one parameter of the device's timing configuration, "name=value" as
 * `--timing-set` takes it (after vt_ext_set_timing); the configuration is checked whole. */
int vt_ext_set_timing_parameter(vt_device_h hdevice, const char* assignment);
/* Cycles of the last finished launch as the cycle model counts them (from the workgroups
 * accepted to the last done); -1 when it ran without timing. */
int vt_ext_get_last_cycles(vt_device_h hdevice, uint64_t* cycles);

/* The memory checker (docs/driver.md, "Memory checking") for the following launches: every
 * global, local and private access of every thread must lie inside a buffer allocated when
 * the launch starts, the uploaded program's sections, the workgroup's local memory (ldsSize)
 * or the thread's private memory (pdsSize). A launch that accesses anything else runs to
 * its end and then fails: vt_ready_wait returns -1 and vt_ext_last_error lists each invalid
 * access (read or write, size, address, the nearest buffer and the distance, kernel,
 * workgroup, warp, thread and work-item, pc and instruction). enable 0: off, the default. */
int vt_ext_set_memcheck(vt_device_h hdevice, int enable);

/* Stops the running kernel at its next warp switch and drops the queued ones; the next
 * vt_ready_wait or vt_finish_all_kernel reports "launch cancelled by the host". vt_dev_close
 * does the same before it closes the device, so it never waits for a kernel. */
int vt_ext_cancel(vt_device_h hdevice);

#ifdef __cplusplus
}
#endif

#endif /* VENTUS_VENTUS_H */
