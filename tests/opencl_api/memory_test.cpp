// Buffers, sub-buffers, transfers and mapping against the OpenCL 1.2 specification.
#include <array>
#include <cstring>
#include <numeric>

#include "common.h"

namespace clapi {
namespace {

using Memory = ClTest;

cl_mem create(cl_context c, cl_mem_flags flags, size_t size, void* host, cl_int* e) {
  return clCreateBuffer(c, flags, size, host, e);
}

// clCreateBuffer's flag rules: each row is expected to fail with `code`.
TEST_F(Memory, CreateBufferFlagRules) {
  std::array<char, 64> host{};
  struct Case {
    cl_mem_flags flags;
    size_t size;
    void* host;
    cl_int code;
    const char* what;
  } cases[] = {
      {CL_MEM_READ_WRITE, 0, nullptr, CL_INVALID_BUFFER_SIZE, "size 0"},
      {CL_MEM_USE_HOST_PTR, 64, nullptr, CL_INVALID_HOST_PTR, "USE_HOST_PTR without host_ptr"},
      {CL_MEM_COPY_HOST_PTR, 64, nullptr, CL_INVALID_HOST_PTR, "COPY_HOST_PTR without host_ptr"},
      {CL_MEM_READ_WRITE, 64, host.data(), CL_INVALID_HOST_PTR, "host_ptr without USE/COPY"},
      {CL_MEM_ALLOC_HOST_PTR, 64, host.data(), CL_INVALID_HOST_PTR, "host_ptr with ALLOC only"},
      {CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 64, nullptr, CL_INVALID_VALUE, "READ_ONLY|WRITE_ONLY"},
      {CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, 64, nullptr, CL_INVALID_VALUE, "READ_WRITE|READ_ONLY"},
      {CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY, 64, nullptr, CL_INVALID_VALUE,
       "READ_WRITE|WRITE_ONLY"},
      {CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR, 64, host.data(), CL_INVALID_VALUE,
       "USE_HOST_PTR|ALLOC_HOST_PTR"},
      {CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, 64, host.data(), CL_INVALID_VALUE,
       "USE_HOST_PTR|COPY_HOST_PTR"},
      {CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY, 64, nullptr, CL_INVALID_VALUE,
       "HOST_READ_ONLY|HOST_WRITE_ONLY"},
      {CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS, 64, nullptr, CL_INVALID_VALUE,
       "HOST_READ_ONLY|HOST_NO_ACCESS"},
      {CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS, 64, nullptr, CL_INVALID_VALUE,
       "HOST_WRITE_ONLY|HOST_NO_ACCESS"},
      {cl_mem_flags{1} << 40, 64, nullptr, CL_INVALID_VALUE, "an unknown flag"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    cl_int e = CL_SUCCESS;
    cl_mem m = create(context_, c.flags, c.size, c.host, &e);
    EXPECT_EQ(m, nullptr);
    EXPECT_CL(c.code, e);
    if (m) clReleaseMemObject(m);
  }
  // Larger than CL_DEVICE_MAX_MEM_ALLOC_SIZE.
  cl_int e = CL_SUCCESS;
  auto max_alloc = device_value<cl_ulong>(device(), CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  EXPECT_EQ(create(context_, 0, max_alloc + 1, nullptr, &e), nullptr);
  EXPECT_CL(CL_INVALID_BUFFER_SIZE, e);
  EXPECT_EQ(create(nullptr, 0, 64, nullptr, &e), nullptr);
  EXPECT_CL(CL_INVALID_CONTEXT, e);

  // Accepted combinations; flags 0 means CL_MEM_READ_WRITE.
  for (cl_mem_flags f :
       {cl_mem_flags{0}, cl_mem_flags{CL_MEM_READ_ONLY}, cl_mem_flags{CL_MEM_WRITE_ONLY},
        cl_mem_flags{CL_MEM_ALLOC_HOST_PTR}, cl_mem_flags{CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS},
        cl_mem_flags{CL_MEM_HOST_READ_ONLY}, cl_mem_flags{CL_MEM_HOST_WRITE_ONLY}}) {
    SCOPED_TRACE(f);
    cl_mem m = create(context_, f, 64, nullptr, &e);
    ASSERT_OK(e);
    cl_mem_flags back = 0;
    EXPECT_OK(clGetMemObjectInfo(m, CL_MEM_FLAGS, sizeof back, &back, nullptr));
    // The flags as given (an implementation may add CL_MEM_READ_WRITE to 0).
    EXPECT_EQ(back & ~cl_mem_flags{CL_MEM_READ_WRITE}, f & ~cl_mem_flags{CL_MEM_READ_WRITE});
    EXPECT_OK(clReleaseMemObject(m));
  }
  for (cl_mem_flags f : {cl_mem_flags{CL_MEM_COPY_HOST_PTR},
                         cl_mem_flags{CL_MEM_COPY_HOST_PTR | CL_MEM_ALLOC_HOST_PTR},
                         cl_mem_flags{CL_MEM_USE_HOST_PTR}}) {
    SCOPED_TRACE(f);
    cl_mem m = create(context_, f, host.size(), host.data(), &e);
    ASSERT_OK(e);
    EXPECT_OK(clReleaseMemObject(m));
  }
}

TEST_F(Memory, CopyHostPtrAndUseHostPtrData) {
  std::vector<cl_int> init(16);
  std::iota(init.begin(), init.end(), 100);
  cl_mem copied = buffer(CL_MEM_COPY_HOST_PTR, 64, init.data());
  // COPY_HOST_PTR copied at creation: later host changes do not reach the buffer.
  std::vector<cl_int> expected = init;
  init[3] = -1;
  EXPECT_EQ(read_ints(copied, 16), expected);

  std::vector<cl_int> user(16, 5);
  cl_mem used = buffer(CL_MEM_USE_HOST_PTR, 64, user.data());
  void* host_ptr = nullptr;
  ASSERT_OK(clGetMemObjectInfo(used, CL_MEM_HOST_PTR, sizeof host_ptr, &host_ptr, nullptr));
  EXPECT_EQ(host_ptr, user.data());
  ASSERT_OK(clGetMemObjectInfo(copied, CL_MEM_HOST_PTR, sizeof host_ptr, &host_ptr, nullptr));
  EXPECT_EQ(host_ptr, nullptr) << "CL_MEM_HOST_PTR is the host_ptr of USE_HOST_PTR only";
  EXPECT_EQ(read_ints(used, 16), user);
  std::vector<cl_int> nine(16, 9);
  write_ints(used, nine);
  // After a blocking command the host memory of a USE_HOST_PTR buffer may be stale until it is
  // mapped: map it to read the current contents.
  void* p =
      clEnqueueMapBuffer(queue_, used, CL_TRUE, CL_MAP_READ, 0, 64, 0, nullptr, nullptr, nullptr);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(0, std::memcmp(p, nine.data(), 64));
  EXPECT_OK(clEnqueueUnmapMemObject(queue_, used, p, 0, nullptr, nullptr));
  EXPECT_OK(clFinish(queue_));
}

TEST_F(Memory, MemObjectInfo) {
  cl_mem m = buffer(CL_MEM_READ_ONLY | CL_MEM_HOST_WRITE_ONLY, 256);
  size_t size = 0;
  cl_mem_object_type type = 0;
  ASSERT_OK(clGetMemObjectInfo(m, CL_MEM_TYPE, sizeof type, &type, &size));
  EXPECT_EQ(size, sizeof type);
  EXPECT_EQ(type, static_cast<cl_mem_object_type>(CL_MEM_OBJECT_BUFFER));
  size_t bytes = 0;
  ASSERT_OK(clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof bytes, &bytes, nullptr));
  EXPECT_EQ(bytes, 256u);
  cl_mem_flags flags = 0;
  ASSERT_OK(clGetMemObjectInfo(m, CL_MEM_FLAGS, sizeof flags, &flags, nullptr));
  EXPECT_EQ(flags, static_cast<cl_mem_flags>(CL_MEM_READ_ONLY | CL_MEM_HOST_WRITE_ONLY));
  cl_context c = nullptr;
  ASSERT_OK(clGetMemObjectInfo(m, CL_MEM_CONTEXT, sizeof c, &c, nullptr));
  EXPECT_EQ(c, context_);
  cl_mem assoc = m;
  ASSERT_OK(clGetMemObjectInfo(m, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, nullptr));
  EXPECT_EQ(assoc, nullptr);
  size_t offset = 99;
  ASSERT_OK(clGetMemObjectInfo(m, CL_MEM_OFFSET, sizeof offset, &offset, nullptr));
  EXPECT_EQ(offset, 0u);
  cl_uint maps = 99;
  ASSERT_OK(clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof maps, &maps, nullptr));
  EXPECT_EQ(maps, 0u);
  EXPECT_EQ(reference_count(m), 1u);
  EXPECT_OK(clRetainMemObject(m));
  EXPECT_EQ(reference_count(m), 2u);
  EXPECT_OK(clReleaseMemObject(m));
  EXPECT_EQ(reference_count(m), 1u);
  EXPECT_CL(CL_INVALID_VALUE, clGetMemObjectInfo(m, CL_MEM_SIZE, 1, &bytes, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clGetMemObjectInfo(m, 0x7777, sizeof bytes, &bytes, nullptr));
}

TEST_F(Memory, SubBuffers) {
  cl_uint align = device_base_addr_align_bytes();
  ASSERT_GE(align, 4u);
  size_t size = 4 * align;
  std::vector<cl_int> init(size / 4);
  std::iota(init.begin(), init.end(), 0);
  cl_mem parent = buffer(CL_MEM_COPY_HOST_PTR, size, init.data());
  cl_int e = CL_SUCCESS;
  auto sub = [&](cl_mem of, cl_mem_flags flags, size_t origin, size_t bytes) {
    cl_buffer_region r{origin, bytes};
    return clCreateSubBuffer(of, flags, CL_BUFFER_CREATE_TYPE_REGION, &r, &e);
  };
  EXPECT_EQ(sub(parent, 0, 4, 16), nullptr);
  EXPECT_CL(CL_MISALIGNED_SUB_BUFFER_OFFSET, e);
  EXPECT_EQ(sub(parent, 0, align, size), nullptr);
  EXPECT_CL(CL_INVALID_VALUE, e) << "origin + size beyond the buffer";
  EXPECT_EQ(sub(parent, 0, size, 4), nullptr);
  EXPECT_CL(CL_INVALID_VALUE, e) << "origin at the end";
  EXPECT_EQ(sub(parent, 0, align, 0), nullptr);
  EXPECT_CL(CL_INVALID_BUFFER_SIZE, e);
  EXPECT_EQ(sub(parent, CL_MEM_USE_HOST_PTR, 0, 16), nullptr);
  EXPECT_CL(CL_INVALID_VALUE, e) << "host pointer flags are inherited, not given";
  cl_buffer_region r{0, 16};
  EXPECT_EQ(clCreateSubBuffer(parent, 0, 0x7777, &r, &e), nullptr);
  EXPECT_CL(CL_INVALID_VALUE, e);
  EXPECT_EQ(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, nullptr, &e), nullptr);
  EXPECT_CL(CL_INVALID_VALUE, e);

  cl_mem child = sub(parent, 0, align, 2 * align);
  ASSERT_OK(e);
  mems_.push_back(child);
  EXPECT_EQ(sub(child, 0, 0, 16), nullptr);
  EXPECT_CL(CL_INVALID_MEM_OBJECT, e) << "a sub-buffer of a sub-buffer";
  cl_mem assoc = nullptr;
  ASSERT_OK(clGetMemObjectInfo(child, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, nullptr));
  EXPECT_EQ(assoc, parent);
  size_t offset = 0;
  ASSERT_OK(clGetMemObjectInfo(child, CL_MEM_OFFSET, sizeof offset, &offset, nullptr));
  EXPECT_EQ(offset, align);
  // The sub-buffer aliases the parent's bytes [align, 3 * align).
  std::vector<cl_int> expected(init.begin() + align / 4, init.begin() + 3 * align / 4);
  EXPECT_EQ(read_ints(child, 2 * align / 4), expected);
  cl_int v = -5;
  ASSERT_OK(clEnqueueWriteBuffer(queue_, child, CL_TRUE, 4, 4, &v, 0, nullptr, nullptr));
  std::vector<cl_int> all = read_ints(parent, size / 4);
  EXPECT_EQ(all[align / 4 + 1], -5);
  EXPECT_EQ(all[align / 4], cl_int(align / 4));

  // Access flags: a sub-buffer may not widen its parent's.
  cl_mem ro = buffer(CL_MEM_READ_ONLY, size);
  EXPECT_EQ(sub(ro, CL_MEM_WRITE_ONLY, 0, 16), nullptr);
  EXPECT_CL(CL_INVALID_VALUE, e);
  EXPECT_EQ(sub(ro, CL_MEM_READ_WRITE, 0, 16), nullptr);
  EXPECT_CL(CL_INVALID_VALUE, e);
  cl_mem host_none = buffer(CL_MEM_HOST_NO_ACCESS, size);
  EXPECT_EQ(sub(host_none, CL_MEM_HOST_READ_ONLY, 0, 16), nullptr);
  EXPECT_CL(CL_INVALID_VALUE, e);
  // Inherited flags.
  cl_mem ro_child = sub(ro, 0, 0, 16);
  ASSERT_OK(e);
  cl_mem_flags flags = 0;
  ASSERT_OK(clGetMemObjectInfo(ro_child, CL_MEM_FLAGS, sizeof flags, &flags, nullptr));
  EXPECT_NE(flags & CL_MEM_READ_ONLY, 0u);
  EXPECT_OK(clReleaseMemObject(ro_child));
}

TEST_F(Memory, TransfersOutOfRange) {
  cl_mem a = buffer(CL_MEM_READ_WRITE, 64);
  cl_mem b = buffer(CL_MEM_READ_WRITE, 64);
  std::array<char, 128> host{};
  EXPECT_CL(CL_INVALID_VALUE,
            clEnqueueReadBuffer(queue_, a, CL_TRUE, 60, 8, host.data(), 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE,
            clEnqueueReadBuffer(queue_, a, CL_TRUE, 0, 65, host.data(), 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE,
            clEnqueueReadBuffer(queue_, a, CL_TRUE, 0, 8, nullptr, 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE,
            clEnqueueWriteBuffer(queue_, a, CL_TRUE, 64, 1, host.data(), 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE,
            clEnqueueWriteBuffer(queue_, a, CL_TRUE, 0, 8, nullptr, 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueCopyBuffer(queue_, a, b, 32, 0, 33, 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueCopyBuffer(queue_, a, b, 0, 40, 32, 0, nullptr, nullptr));
  // Overlapping regions of one buffer; disjoint ones are fine.
  EXPECT_CL(CL_MEM_COPY_OVERLAP, clEnqueueCopyBuffer(queue_, a, a, 0, 8, 16, 0, nullptr, nullptr));
  EXPECT_CL(CL_MEM_COPY_OVERLAP, clEnqueueCopyBuffer(queue_, a, a, 8, 0, 16, 0, nullptr, nullptr));
  EXPECT_OK(clEnqueueCopyBuffer(queue_, a, a, 0, 16, 16, 0, nullptr, nullptr));
  // An event wait list that does not match its count.
  EXPECT_CL(CL_INVALID_EVENT_WAIT_LIST,
            clEnqueueReadBuffer(queue_, a, CL_TRUE, 0, 8, host.data(), 1, nullptr, nullptr));
  cl_event none = nullptr;
  EXPECT_CL(CL_INVALID_EVENT_WAIT_LIST,
            clEnqueueReadBuffer(queue_, a, CL_TRUE, 0, 8, host.data(), 0, &none, nullptr));
  EXPECT_OK(clFinish(queue_));
}

TEST_F(Memory, CopyBufferData) {
  std::vector<cl_int> init(32);
  std::iota(init.begin(), init.end(), 1);
  cl_mem a = buffer(CL_MEM_COPY_HOST_PTR, 128, init.data());
  cl_mem b = buffer(CL_MEM_READ_WRITE, 128);
  write_ints(b, std::vector<cl_int>(32, 0));
  ASSERT_OK(clEnqueueCopyBuffer(queue_, a, b, 8, 20, 40, 0, nullptr, nullptr));
  std::vector<cl_int> expected(32, 0);
  for (int i = 0; i < 10; ++i) expected[5 + i] = init[2 + i];
  EXPECT_EQ(read_ints(b, 32), expected);
  // Within one buffer, disjoint.
  ASSERT_OK(clEnqueueCopyBuffer(queue_, a, a, 0, 64, 64, 0, nullptr, nullptr));
  std::vector<cl_int> twice(init.begin(), init.begin() + 16);
  twice.insert(twice.end(), init.begin(), init.begin() + 16);
  EXPECT_EQ(read_ints(a, 32), twice);
}

TEST_F(Memory, HostAccessFlags) {
  cl_mem none = buffer(CL_MEM_HOST_NO_ACCESS, 64);
  cl_mem ronly = buffer(CL_MEM_HOST_READ_ONLY, 64);
  cl_mem wonly = buffer(CL_MEM_HOST_WRITE_ONLY, 64);
  std::array<char, 64> host{};
  auto read = [&](cl_mem m) {
    return clEnqueueReadBuffer(queue_, m, CL_TRUE, 0, 8, host.data(), 0, nullptr, nullptr);
  };
  auto write = [&](cl_mem m) {
    return clEnqueueWriteBuffer(queue_, m, CL_TRUE, 0, 8, host.data(), 0, nullptr, nullptr);
  };
  EXPECT_CL(CL_INVALID_OPERATION, read(none));
  EXPECT_CL(CL_INVALID_OPERATION, write(none));
  EXPECT_CL(CL_INVALID_OPERATION, read(wonly));
  EXPECT_CL(CL_INVALID_OPERATION, write(ronly));
  EXPECT_OK(read(ronly));
  EXPECT_OK(write(wonly));
  cl_int e = CL_SUCCESS;
  EXPECT_EQ(clEnqueueMapBuffer(queue_, none, CL_TRUE, CL_MAP_READ, 0, 8, 0, nullptr, nullptr, &e),
            nullptr);
  EXPECT_CL(CL_INVALID_OPERATION, e);
  EXPECT_EQ(clEnqueueMapBuffer(queue_, ronly, CL_TRUE, CL_MAP_WRITE, 0, 8, 0, nullptr, nullptr, &e),
            nullptr);
  EXPECT_CL(CL_INVALID_OPERATION, e);
  EXPECT_EQ(clEnqueueMapBuffer(queue_, wonly, CL_TRUE, CL_MAP_READ, 0, 8, 0, nullptr, nullptr, &e),
            nullptr);
  EXPECT_CL(CL_INVALID_OPERATION, e);
  EXPECT_OK(clFinish(queue_));
}

TEST_F(Memory, Fill) {
  cl_mem m = buffer(CL_MEM_READ_WRITE, 256);
  write_ints(m, std::vector<cl_int>(64, 0));
  cl_uint pattern[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  EXPECT_CL(CL_INVALID_VALUE,
            clEnqueueFillBuffer(queue_, m, pattern, 3, 0, 12, 0, nullptr, nullptr))
      << "a pattern size that is no power of two";
  EXPECT_CL(CL_INVALID_VALUE,
            clEnqueueFillBuffer(queue_, m, pattern, 256, 0, 256, 0, nullptr, nullptr))
      << "pattern larger than 128 bytes";
  EXPECT_CL(CL_INVALID_VALUE,
            clEnqueueFillBuffer(queue_, m, pattern, 0, 0, 16, 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE,
            clEnqueueFillBuffer(queue_, m, nullptr, 4, 0, 16, 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE,
            clEnqueueFillBuffer(queue_, m, pattern, 8, 4, 16, 0, nullptr, nullptr))
      << "offset not a multiple of the pattern size";
  EXPECT_CL(CL_INVALID_VALUE,
            clEnqueueFillBuffer(queue_, m, pattern, 8, 0, 12, 0, nullptr, nullptr))
      << "size not a multiple of the pattern size";
  EXPECT_CL(CL_INVALID_VALUE,
            clEnqueueFillBuffer(queue_, m, pattern, 8, 248, 16, 0, nullptr, nullptr));
  ASSERT_OK(clEnqueueFillBuffer(queue_, m, pattern, 8, 16, 64, 0, nullptr, nullptr));
  std::vector<cl_int> expected(64, 0);
  for (int i = 0; i < 16; ++i) expected[4 + i] = i % 2 ? 2 : 1;
  EXPECT_EQ(read_ints(m, 64), expected);
  cl_uchar byte = 0xff;
  ASSERT_OK(clEnqueueFillBuffer(queue_, m, &byte, 1, 255, 1, 0, nullptr, nullptr));
  expected[63] = static_cast<cl_int>(0xff000000u);
  EXPECT_EQ(read_ints(m, 64), expected);
}

// The bytes a rectangular copy moves, computed on the host (OpenCL's definition: offset =
// origin[2] * slice_pitch + origin[1] * row_pitch + origin[0]; zero pitches default to
// region[0] and region[1] * row_pitch).
void host_copy_rect(const std::vector<unsigned char>& src, std::array<size_t, 3> so, size_t s_row,
                    size_t s_slice, std::vector<unsigned char>& dst, std::array<size_t, 3> d_o,
                    size_t d_row, size_t d_slice, std::array<size_t, 3> region) {
  for (size_t z = 0; z < region[2]; ++z)
    for (size_t y = 0; y < region[1]; ++y)
      for (size_t x = 0; x < region[0]; ++x)
        dst.at((d_o[2] + z) * d_slice + (d_o[1] + y) * d_row + d_o[0] + x) =
            src.at((so[2] + z) * s_slice + (so[1] + y) * s_row + so[0] + x);
}

TEST_F(Memory, RectTransfers) {
  // The buffer: 3 slices of 4 rows of 16 bytes.
  const size_t row = 16, slice = 64, total = 192;
  std::vector<unsigned char> init(total);
  for (size_t i = 0; i < total; ++i) init[i] = static_cast<unsigned char>(i * 7 + 1);
  cl_mem m = buffer(CL_MEM_COPY_HOST_PTR, total, init.data());

  // Read a 5 x 2 x 2 box at (3, 1, 1) into a host array of 8-byte rows, 3 rows a slice,
  // placed at (1, 1, 0).
  std::array<size_t, 3> b_origin{3, 1, 1}, h_origin{1, 1, 0}, region{5, 2, 2};
  std::vector<unsigned char> host(8 * 3 * 2, 0), expected(8 * 3 * 2, 0);
  ASSERT_OK(clEnqueueReadBufferRect(queue_, m, CL_TRUE, b_origin.data(), h_origin.data(),
                                    region.data(), row, slice, 8, 24, host.data(), 0, nullptr,
                                    nullptr));
  host_copy_rect(init, b_origin, row, slice, expected, h_origin, 8, 24, region);
  EXPECT_EQ(host, expected);

  // Write a 4 x 3 x 1 box from a host array with default (tight) pitches.
  std::vector<unsigned char> src(12);
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<unsigned char>(200 + i);
  std::array<size_t, 3> zero{0, 0, 0}, w_origin{10, 1, 2}, w_region{4, 3, 1};
  ASSERT_OK(clEnqueueWriteBufferRect(queue_, m, CL_TRUE, w_origin.data(), zero.data(),
                                     w_region.data(), row, slice, 0, 0, src.data(), 0, nullptr,
                                     nullptr));
  std::vector<unsigned char> model = init;
  host_copy_rect(src, zero, 4, 12, model, w_origin, row, slice, w_region);
  std::vector<unsigned char> all(total);
  ASSERT_OK(clEnqueueReadBuffer(queue_, m, CL_TRUE, 0, total, all.data(), 0, nullptr, nullptr));
  EXPECT_EQ(all, model);

  // Copy a box into another buffer with different pitches (20-byte rows, 100-byte slices).
  cl_mem d = buffer(CL_MEM_READ_WRITE, 300);
  std::vector<unsigned char> dmodel(300, 0x5a);
  ASSERT_OK(clEnqueueWriteBuffer(queue_, d, CL_TRUE, 0, 300, dmodel.data(), 0, nullptr, nullptr));
  std::array<size_t, 3> c_src{2, 0, 0}, c_dst{5, 2, 1}, c_region{6, 3, 2};
  ASSERT_OK(clEnqueueCopyBufferRect(queue_, m, d, c_src.data(), c_dst.data(), c_region.data(), row,
                                    slice, 20, 100, 0, nullptr, nullptr));
  host_copy_rect(model, c_src, row, slice, dmodel, c_dst, 20, 100, c_region);
  std::vector<unsigned char> dall(300);
  ASSERT_OK(clEnqueueReadBuffer(queue_, d, CL_TRUE, 0, 300, dall.data(), 0, nullptr, nullptr));
  EXPECT_EQ(dall, dmodel);

  // Errors: a region beyond the buffer, a zero region, pitches too small.
  std::array<size_t, 3> big{17, 1, 1}, empty{0, 1, 1}, one{1, 1, 1};
  EXPECT_CL(CL_INVALID_VALUE,
            clEnqueueReadBufferRect(queue_, m, CL_TRUE, zero.data(), zero.data(), big.data(), row,
                                    slice, 0, 0, host.data(), 0, nullptr, nullptr));
  std::array<size_t, 3> last_slice{0, 0, 3};
  EXPECT_CL(CL_INVALID_VALUE,
            clEnqueueReadBufferRect(queue_, m, CL_TRUE, last_slice.data(), zero.data(), one.data(),
                                    row, slice, 0, 0, host.data(), 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE,
            clEnqueueReadBufferRect(queue_, m, CL_TRUE, zero.data(), zero.data(), empty.data(), row,
                                    slice, 0, 0, host.data(), 0, nullptr, nullptr));
  std::array<size_t, 3> wide{8, 2, 1};
  EXPECT_CL(CL_INVALID_VALUE,
            clEnqueueReadBufferRect(queue_, m, CL_TRUE, zero.data(), zero.data(), wide.data(), 4, 0,
                                    0, 0, host.data(), 0, nullptr, nullptr))
      << "buffer_row_pitch < region[0]";
  EXPECT_CL(CL_INVALID_VALUE,
            clEnqueueReadBufferRect(queue_, m, CL_TRUE, zero.data(), zero.data(), wide.data(), row,
                                    slice, 4, 0, host.data(), 0, nullptr, nullptr))
      << "host_row_pitch < region[0]";
  // Overlapping boxes of one buffer.
  std::array<size_t, 3> o1{0, 0, 0}, o2{2, 1, 0}, r2{4, 2, 1};
  EXPECT_CL(CL_MEM_COPY_OVERLAP,
            clEnqueueCopyBufferRect(queue_, m, m, o1.data(), o2.data(), r2.data(), row, slice, row,
                                    slice, 0, nullptr, nullptr));
  EXPECT_OK(clFinish(queue_));
}

// Boxes of one buffer whose byte spans interleave without sharing a byte (columns side by
// side, rows of each slice in the other's gaps) are no overlap (OpenCL 1.2 appendix D):
// the copy runs. Sharing one byte is CL_MEM_COPY_OVERLAP.
TEST_F(Memory, CopyBufferRectInterleavedBoxes) {
  const size_t row = 16, slice = 64, total = 256;
  std::vector<unsigned char> init(total);
  for (size_t i = 0; i < total; ++i) init[i] = static_cast<unsigned char>(i * 5 + 3);
  cl_mem m = buffer(CL_MEM_COPY_HOST_PTR, total, init.data());
  std::vector<unsigned char> model = init;
  std::array<size_t, 3> left{0, 0, 0}, right{8, 0, 0}, columns{8, 4, 2};
  ASSERT_OK(clEnqueueCopyBufferRect(queue_, m, m, left.data(), right.data(), columns.data(), row,
                                    slice, row, slice, 0, nullptr, nullptr));
  host_copy_rect(init, left, row, slice, model, right, row, slice, columns);
  std::array<size_t, 3> top{0, 0, 1}, bottom{0, 2, 1}, rows{16, 2, 3};
  ASSERT_OK(clEnqueueCopyBufferRect(queue_, m, m, bottom.data(), top.data(), rows.data(), row,
                                    slice, row, slice, 0, nullptr, nullptr));
  std::vector<unsigned char> before = model;
  host_copy_rect(before, bottom, row, slice, model, top, row, slice, rows);
  std::vector<unsigned char> all(total);
  ASSERT_OK(clEnqueueReadBuffer(queue_, m, CL_TRUE, 0, total, all.data(), 0, nullptr, nullptr));
  EXPECT_EQ(all, model);
  std::array<size_t, 3> shifted{7, 0, 0};
  EXPECT_CL(CL_MEM_COPY_OVERLAP,
            clEnqueueCopyBufferRect(queue_, m, m, left.data(), shifted.data(), columns.data(), row,
                                    slice, row, slice, 0, nullptr, nullptr));
  EXPECT_OK(clFinish(queue_));
}

TEST_F(Memory, MapUnmap) {
  std::vector<cl_int> init(16);
  std::iota(init.begin(), init.end(), 40);
  cl_mem m = buffer(CL_MEM_COPY_HOST_PTR, 64, init.data());
  cl_int e = CL_SUCCESS;
  auto* p = static_cast<cl_int*>(clEnqueueMapBuffer(queue_, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE,
                                                    16, 32, 0, nullptr, nullptr, &e));
  ASSERT_OK(e);
  ASSERT_NE(p, nullptr);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(p[i], init[4 + i]);
  cl_uint maps = 0;
  ASSERT_OK(clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof maps, &maps, nullptr));
  EXPECT_EQ(maps, 1u);
  for (int i = 0; i < 8; ++i) p[i] = -i;
  // A pointer this buffer did not return.
  cl_int stranger = 0;
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueUnmapMemObject(queue_, m, &stranger, 0, nullptr, nullptr));
  cl_event unmapped = nullptr;
  ASSERT_OK(clEnqueueUnmapMemObject(queue_, m, p, 0, nullptr, &unmapped));
  ASSERT_OK(clWaitForEvents(1, &unmapped));
  cl_command_type type = 0;
  EXPECT_OK(clGetEventInfo(unmapped, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr));
  EXPECT_EQ(type, static_cast<cl_command_type>(CL_COMMAND_UNMAP_MEM_OBJECT));
  EXPECT_OK(clReleaseEvent(unmapped));
  ASSERT_OK(clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof maps, &maps, nullptr));
  EXPECT_EQ(maps, 0u);
  std::vector<cl_int> expected = init;
  for (int i = 0; i < 8; ++i) expected[4 + i] = -i;
  EXPECT_EQ(read_ints(m, 16), expected);
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueUnmapMemObject(queue_, m, p, 0, nullptr, nullptr))
      << "a pointer already unmapped";

  // Two mappings at once; WRITE_INVALIDATE_REGION; non-blocking map with an event.
  cl_event mapped = nullptr;
  auto* w = static_cast<cl_int*>(clEnqueueMapBuffer(
      queue_, m, CL_FALSE, CL_MAP_WRITE_INVALIDATE_REGION, 0, 16, 0, nullptr, &mapped, &e));
  ASSERT_OK(e);
  auto* r = static_cast<cl_int*>(
      clEnqueueMapBuffer(queue_, m, CL_TRUE, CL_MAP_READ, 48, 16, 0, nullptr, nullptr, &e));
  ASSERT_OK(e);
  ASSERT_OK(clWaitForEvents(1, &mapped));
  EXPECT_OK(clGetEventInfo(mapped, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr));
  EXPECT_EQ(type, static_cast<cl_command_type>(CL_COMMAND_MAP_BUFFER));
  EXPECT_OK(clReleaseEvent(mapped));
  ASSERT_OK(clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof maps, &maps, nullptr));
  EXPECT_EQ(maps, 2u);
  for (int i = 0; i < 4; ++i) w[i] = 1000 + i;
  for (int i = 0; i < 4; ++i) EXPECT_EQ(r[i], expected[12 + i]);
  ASSERT_OK(clEnqueueUnmapMemObject(queue_, m, r, 0, nullptr, nullptr));
  ASSERT_OK(clEnqueueUnmapMemObject(queue_, m, w, 0, nullptr, nullptr));
  for (int i = 0; i < 4; ++i) expected[i] = 1000 + i;
  EXPECT_EQ(read_ints(m, 16), expected);

  // Errors.
  EXPECT_EQ(clEnqueueMapBuffer(queue_, m, CL_TRUE, CL_MAP_READ, 60, 8, 0, nullptr, nullptr, &e),
            nullptr);
  EXPECT_CL(CL_INVALID_VALUE, e) << "region beyond the buffer";
  EXPECT_EQ(clEnqueueMapBuffer(queue_, m, CL_TRUE, CL_MAP_READ, 0, 0, 0, nullptr, nullptr, &e),
            nullptr);
  EXPECT_CL(CL_INVALID_VALUE, e) << "size 0";
  EXPECT_EQ(clEnqueueMapBuffer(queue_, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, 0,
                               8, 0, nullptr, nullptr, &e),
            nullptr);
  // pocl 3.1 maps it.
  EXPECT_CL(CL_INVALID_VALUE, e) << "WRITE_INVALIDATE_REGION with READ";
  EXPECT_OK(clFinish(queue_));
}

struct DestructorLog {
  std::mutex mutex;
  std::vector<int> order;
};
struct DestructorTag {
  DestructorLog* log;
  int id;
};
void CL_CALLBACK on_destroyed(cl_mem, void* user_data) {
  auto* tag = static_cast<DestructorTag*>(user_data);
  std::lock_guard lock(tag->log->mutex);
  tag->log->order.push_back(tag->id);
}

TEST_F(Memory, DestructorCallbacksRunInReverseOrder) {
  cl_int e = CL_SUCCESS;
  cl_mem m = create(context_, 0, 64, nullptr, &e);
  ASSERT_OK(e);
  DestructorLog log;
  DestructorTag first{&log, 1}, second{&log, 2};
  ASSERT_OK(clSetMemObjectDestructorCallback(m, on_destroyed, &first));
  ASSERT_OK(clSetMemObjectDestructorCallback(m, on_destroyed, &second));
  EXPECT_CL(CL_INVALID_VALUE, clSetMemObjectDestructorCallback(m, nullptr, &first));
  ASSERT_OK(clRetainMemObject(m));
  ASSERT_OK(clReleaseMemObject(m));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  {
    std::lock_guard lock(log.mutex);
    EXPECT_TRUE(log.order.empty()) << "called while the buffer is still referenced";
  }
  ASSERT_OK(clReleaseMemObject(m));
  EXPECT_TRUE(wait_until([&] {
    std::lock_guard lock(log.mutex);
    return log.order.size() == 2;
  }));
  std::lock_guard lock(log.mutex);
  EXPECT_EQ(log.order, (std::vector<int>{2, 1}));
}

TEST_F(Memory, MigrateAndSubBufferKernel) {
  cl_uint align = device_base_addr_align_bytes();
  size_t count = 3 * align / sizeof(cl_int);
  std::vector<cl_int> init(count);
  std::iota(init.begin(), init.end(), 0);
  cl_mem parent = buffer(CL_MEM_COPY_HOST_PTR, count * sizeof(cl_int), init.data());
  cl_event migrated = nullptr;
  ASSERT_OK(clEnqueueMigrateMemObjects(queue_, 1, &parent, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED,
                                       0, nullptr, &migrated));
  ASSERT_OK(clWaitForEvents(1, &migrated));
  cl_command_type type = 0;
  EXPECT_OK(clGetEventInfo(migrated, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr));
  EXPECT_EQ(type, static_cast<cl_command_type>(CL_COMMAND_MIGRATE_MEM_OBJECTS));
  EXPECT_OK(clReleaseEvent(migrated));
  EXPECT_CL(CL_INVALID_VALUE,
            clEnqueueMigrateMemObjects(queue_, 0, &parent, 0, 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE,
            clEnqueueMigrateMemObjects(queue_, 1, &parent, 1 << 7, 0, nullptr, nullptr));
  // CONTENT_UNDEFINED allows the contents to be lost: write them again.
  write_ints(parent, init);

  // A kernel on the middle third (a sub-buffer) changes only that third.
  cl_buffer_region r{align, align};
  cl_int e = CL_SUCCESS;
  cl_mem middle = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &e);
  ASSERT_OK(e);
  mems_.push_back(middle);
  cl_kernel k = kernel(build(kSimpleKernels), "add_one");
  ASSERT_NE(k, nullptr);
  ASSERT_OK(clSetKernelArg(k, 0, sizeof middle, &middle));
  size_t n = align / sizeof(cl_int);
  ASSERT_OK(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr));
  std::vector<cl_int> expected = init;
  for (size_t i = n; i < 2 * n; ++i) ++expected[i];
  EXPECT_EQ(read_ints(parent, count), expected);
}

// Devices without image support refuse images and samplers; no native kernels unless the
// device reports CL_EXEC_NATIVE_KERNEL.
TEST_F(Memory, UnsupportedFeaturesAreRefused) {
  cl_int e = CL_SUCCESS;
  if (!device_value<cl_bool>(device(), CL_DEVICE_IMAGE_SUPPORT)) {
    cl_image_format format{CL_RGBA, CL_UNORM_INT8};
    cl_image_desc desc{};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = 4;
    desc.image_height = 4;
    EXPECT_EQ(clCreateImage(context_, 0, &format, &desc, nullptr, &e), nullptr);
    EXPECT_CL(CL_INVALID_OPERATION, e);
    EXPECT_EQ(clCreateSampler(context_, CL_FALSE, CL_ADDRESS_NONE, CL_FILTER_NEAREST, &e), nullptr);
    EXPECT_CL(CL_INVALID_OPERATION, e);
  }
  auto caps = device_value<cl_device_exec_capabilities>(device(), CL_DEVICE_EXECUTION_CAPABILITIES);
  if (!(caps & CL_EXEC_NATIVE_KERNEL)) {
    int arg = 0;
    EXPECT_CL(CL_INVALID_OPERATION, clEnqueueNativeKernel(
                                        queue_, [](void*) {}, &arg, sizeof arg, 0, nullptr, nullptr,
                                        0, nullptr, nullptr));
  }
  // Buffers of another context.
  cl_device_id d = device();
  cl_context other = clCreateContext(nullptr, 1, &d, nullptr, nullptr, &e);
  ASSERT_OK(e);
  cl_mem foreign = clCreateBuffer(other, 0, 16, nullptr, &e);
  ASSERT_OK(e);
  cl_mem mine = buffer(0, 16);
  EXPECT_CL(CL_INVALID_CONTEXT,
            clEnqueueCopyBuffer(queue_, mine, foreign, 0, 0, 16, 0, nullptr, nullptr));
  cl_int v = 0;
  EXPECT_CL(CL_INVALID_CONTEXT,
            clEnqueueReadBuffer(queue_, foreign, CL_TRUE, 0, 4, &v, 0, nullptr, nullptr));
  EXPECT_OK(clReleaseMemObject(foreign));
  EXPECT_OK(clReleaseContext(other));
}

}  // namespace
}  // namespace clapi
