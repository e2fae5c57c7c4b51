/* The driver API used from C through libventus.so: a raw code image (no assembler in C)
 * stores 42 through the first kernel argument. Exit status 0 = pass. */
#include <stdio.h>
#include <string.h>

#include "ventus/ventus.h"

#define CHECK(cond)                                                                \
  do {                                                                             \
    if (!(cond)) {                                                                 \
      fprintf(stderr, "%s:%d: check failed: %s (%s)\n", __FILE__, __LINE__, #cond, \
              vt_ext_last_error(device));                                          \
      return 1;                                                                    \
    }                                                                              \
  } while (0)

int main(void) {
  vt_device_h device = NULL;
  CHECK(vt_dev_open(&device) == 0);
  uint64_t value = 0;
  CHECK(vt_dev_caps(&device, VT_CAPS_ALLOC_BASE_ADDR, &value) == 0 && value == 0x90000000u);
  CHECK(vt_dev_caps(&device, 12345, &value) == -1 &&
        strstr(vt_ext_last_error(device), "caps") != NULL);

  /* csrr t0, CSR_KNL; lw t1, 4(t0); lw t2, 0(t1); li t3, 42; sw t3, 0(t2); endprg */
  const uint32_t code[] = {0x803022f3u, 0x0042a303u, 0x00032383u,
                           0x02a00e13u, 0x01c3a023u, 0x0000400bu};
  CHECK(vt_upload_kernel_bytes(device, code, sizeof code, 0) == 0);

  uint64_t out = 0, args = 0, knl = 0;
  CHECK(vt_buf_alloc(device, 4, &out, VT_BUF_READ_WRITE, 0, 0) == 0);
  CHECK(vt_buf_alloc(device, 4, &args, VT_BUF_READ_ONLY, 0, 0) == 0);
  CHECK(vt_buf_alloc(device, 64, &knl, VT_BUF_READ_ONLY, 0, 0) == 0);
  const uint32_t arg_words[1] = {(uint32_t)out};
  uint32_t knl_words[16] = {0};
  knl_words[0] = 0x80000000u; /* entry (the raw image has no start code) */
  knl_words[1] = (uint32_t)args;
  knl_words[2] = 1;
  knl_words[3] = knl_words[6] = 1;
  CHECK(vt_copy_to_dev(device, args, arg_words, sizeof arg_words, 0, 0) == 0);
  CHECK(vt_copy_to_dev(device, knl, knl_words, sizeof knl_words, 0, 0) == 0);

  struct meta_data meta;
  memset(&meta, 0, sizeof meta);
  meta.kernel_size[0] = meta.kernel_size[1] = meta.kernel_size[2] = 1;
  meta.wf_size = 8;
  meta.wg_size = 1;
  meta.metaDataBaseAddr = knl;
  meta.ldsSize = 1024;
  meta.sgprUsage = meta.vgprUsage = 32;
  CHECK(vt_start(device, &meta, 0) == 0);
  CHECK(vt_ready_wait(device, MAX_TIMEOUT) == 0);

  uint32_t result = 0;
  CHECK(vt_copy_from_dev(device, out, &result, sizeof result, 0, 0) == 0);
  CHECK(result == 42);
  vt_ext_launch_stats stats;
  CHECK(vt_ext_get_launch_stats(device, &stats) == 0 && stats.warp_instructions == 6);

  /* The same launch on the cycle model: the same result, and its cycles. */
  uint64_t cycles = 0;
  CHECK(vt_ext_get_last_cycles(device, &cycles) == -1);
  CHECK(vt_ext_set_timing(device, "verilog-release") == 0);
  CHECK(vt_ext_set_timing_parameter(device, "memory_latency=20") == 0);
  result = 0;
  CHECK(vt_copy_to_dev(device, out, &result, sizeof result, 0, 0) == 0);
  CHECK(vt_start(device, &meta, 0) == 0);
  CHECK(vt_ready_wait(device, MAX_TIMEOUT) == 0);
  CHECK(vt_copy_from_dev(device, out, &result, sizeof result, 0, 0) == 0);
  CHECK(result == 42);
  CHECK(vt_ext_get_last_cycles(device, &cycles) == 0 && cycles > 0);
  CHECK(vt_ext_set_timing(device, NULL) == 0);

  /* And with the memory checker: a correct launch passes. */
  CHECK(vt_ext_set_memcheck(device, 1) == 0);
  CHECK(vt_start(device, &meta, 0) == 0);
  CHECK(vt_ready_wait(device, MAX_TIMEOUT) == 0);
  CHECK(vt_ext_set_memcheck(device, 0) == 0);

  CHECK(vt_copy_from_dev(device, out - 4, &result, 4, 0, 0) == -1);
  CHECK(vt_buf_free(device, 0, NULL, 0, 0) == 0);
  CHECK(vt_copy_from_dev(device, out, &result, 4, 0, 0) == -1);
  CHECK(vt_dev_close(device) == 0);
  printf("c api: ok\n");
  return 0;
}
