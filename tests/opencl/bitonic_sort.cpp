// Bitonic sort of 8192 keys with payloads: a local-memory kernel sorts blocks of 256
// elements (all stages up to the block size, barriers between steps), then a global kernel
// runs each remaining merge step as its own launch (dozens of launches on one queue, the
// data never leaving the device). The host checks the keys against std::sort and that the
// payloads travelled with their keys.
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>
#include <algorithm>
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

static const char* kSource = R"CLC(
// One compare-exchange of the pair (i, i ^ j) in direction given by bit k of i.
inline void exchange(uint* ka, uint* kb, uint* va, uint* vb, bool up) {
  if ((*ka > *kb) == up) {
    uint t = *ka; *ka = *kb; *kb = t;
    t = *va; *va = *vb; *vb = t;
  }
}

// Sorts blocks of BLOCK = 2 * local size elements: ascending / descending alternately by
// block, so that the global merge steps see bitonic sequences.
__kernel void sort_blocks(__global uint* keys, __global uint* vals,
                          __local uint* lk, __local uint* lv) {
  uint lid = get_local_id(0), ls = get_local_size(0), block = 2 * ls;
  uint base = get_group_id(0) * block;
  lk[lid] = keys[base + lid];
  lv[lid] = vals[base + lid];
  lk[lid + ls] = keys[base + lid + ls];
  lv[lid + ls] = vals[base + lid + ls];
  for (uint k = 2; k <= block; k <<= 1) {
    for (uint j = k >> 1; j > 0; j >>= 1) {
      barrier(CLK_LOCAL_MEM_FENCE);
      // Work-item lid handles pair number lid: index i has bit j clear.
      uint i = 2 * lid - (lid & (j - 1));
      uint gi = base + i;
      bool up = ((gi & k) == 0);
      uint ka = lk[i], kb = lk[i + j], va = lv[i], vb = lv[i + j];
      exchange(&ka, &kb, &va, &vb, up);
      lk[i] = ka; lk[i + j] = kb; lv[i] = va; lv[i + j] = vb;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  keys[base + lid] = lk[lid];
  vals[base + lid] = lv[lid];
  keys[base + lid + ls] = lk[lid + ls];
  vals[base + lid + ls] = lv[lid + ls];
}

// One merge step (k, j) over the whole array: one work-item per pair.
__kernel void merge_step(__global uint* keys, __global uint* vals, uint k, uint j) {
  uint p = get_global_id(0);
  uint i = 2 * p - (p & (j - 1));
  bool up = ((i & k) == 0);
  uint ka = keys[i], kb = keys[i + j], va = vals[i], vb = vals[i + j];
  exchange(&ka, &kb, &va, &vb, up);
  keys[i] = ka; keys[i + j] = kb; vals[i] = va; vals[i + j] = vb;
}
)CLC";

int main() {
  try {
    constexpr cl_uint n = 8192, local = 128, block = 2 * local;
    std::vector<cl::Platform> platforms;
    cl::Platform::get(&platforms);
    std::vector<cl::Device> devices;
    platforms.at(0).getDevices(CL_DEVICE_TYPE_ALL, &devices);
    cl::Device device = devices.at(0);
    cl::Context context(device);
    cl::CommandQueue queue(context, device);
    cl::Program program(context, std::string(kSource));
    try {
      program.build({device});
    } catch (const cl::BuildError& e) {
      for (const auto& [dev, log] : e.getBuildLog()) std::cerr << log << "\n";
      throw;
    }

    // Keys with duplicates; the payload is the original index.
    std::vector<cl_uint> keys(n), vals(n);
    std::uint32_t x = 31337;
    for (cl_uint i = 0; i < n; ++i) {
      x ^= x << 13, x ^= x >> 17, x ^= x << 5;
      keys[i] = x % 100000u;
      vals[i] = i;
    }
    cl::Buffer dkeys(context, keys.begin(), keys.end(), false);
    cl::Buffer dvals(context, vals.begin(), vals.end(), false);

    cl::Kernel sort_blocks(program, "sort_blocks");
    sort_blocks.setArg(0, dkeys);
    sort_blocks.setArg(1, dvals);
    sort_blocks.setArg(2, cl::Local(block * sizeof(cl_uint)));
    sort_blocks.setArg(3, cl::Local(block * sizeof(cl_uint)));
    queue.enqueueNDRangeKernel(sort_blocks, cl::NullRange, cl::NDRange(n / 2), cl::NDRange(local));
    int launches = 1;

    cl::Kernel merge(program, "merge_step");
    merge.setArg(0, dkeys);
    merge.setArg(1, dvals);
    for (cl_uint k = 2 * block; k <= n; k <<= 1)
      for (cl_uint j = k >> 1; j > 0; j >>= 1) {
        merge.setArg(2, k);
        merge.setArg(3, j);
        queue.enqueueNDRangeKernel(merge, cl::NullRange, cl::NDRange(n / 2), cl::NDRange(64));
        ++launches;
      }

    std::vector<cl_uint> sorted(n), payload(n);
    cl::copy(queue, dkeys, sorted.begin(), sorted.end());
    cl::copy(queue, dvals, payload.begin(), payload.end());

    std::vector<cl_uint> ref = keys;
    std::sort(ref.begin(), ref.end());
    bool keys_ok = sorted == ref;
    bool payload_ok = true;
    std::vector<bool> seen(n, false);
    for (cl_uint i = 0; i < n; ++i) {
      cl_uint v = payload[i];
      payload_ok = payload_ok && v < n && !seen[v] && keys[v] == sorted[i];
      if (v < n) seen[v] = true;
    }
    std::uint32_t hash = 0;
    for (cl_uint v : sorted) hash = hash * 31u + v;
    std::cout << "bitonic_sort: " << n << " keys, " << launches << " kernel launches\n";
    std::cout << "first=" << sorted[0] << " median=" << sorted[n / 2] << " last=" << sorted[n - 1]
              << " hash=" << hash << "\n";
    std::cout << "keys sorted: " << (keys_ok ? "PASS" : "FAIL") << "\n";
    std::cout << "payloads follow their keys: " << (payload_ok ? "PASS" : "FAIL") << "\n";
    bool ok = keys_ok && payload_ok;
    std::cout << (ok ? "PASS" : "FAIL") << "\n";
    return ok ? 0 : 1;
  } catch (const cl::Error& e) {
    std::cerr << "OpenCL error: " << e.what() << " (" << e.err() << ")\n";
    return 1;
  }
}
