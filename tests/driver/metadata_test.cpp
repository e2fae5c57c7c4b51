// The `.ventus.kernels` metadata reader (rt::parse_kernel_metadata): every field checked
// for type and range, unknown and missing fields and other versions refused; and the
// launch's local memory layout in 64-bit arithmetic.
#include <gtest/gtest.h>

#include <string>

#include "support.h"

namespace {

namespace rt = ventus::rt;

std::string metadata_error(const std::string& json) {
  try {
    rt::parse_kernel_metadata(json);
  } catch (const ventus::Error& e) {
    return e.what();
  }
  return "(no error)";
}

// A kernel "k" with one global pointer argument; `kernel` and `arg` replace fields.
std::string document(const std::string& kernel_fields = "", const std::string& arg_fields = "",
                     const std::string& top_fields = "\"version\":1,") {
  return "{" + top_fields +
         "\"kernels\":[{\"name\":\"k\",\"local_bytes\":0,\"private_bytes\":0,\"sgpr\":32,"
         "\"vgpr\":8," +
         kernel_fields +
         "\"args\":[{\"name\":\"out\",\"type\":\"int*\",\"address_space\":\"global\","
         "\"qualifiers\":\"\"," +
         arg_fields + "\"offset\":0,\"size\":4}]}]}";
}

TEST(KernelMetadata, ReadsWhatTheCompilerWrites) {
  const std::vector<rt::KernelInfo> kernels =
      rt::parse_kernel_metadata(document("\"reqd_work_group_size\":[8,2,1],"));
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(kernels[0].name, "k");
  EXPECT_EQ(kernels[0].sgpr, 32u);
  EXPECT_EQ(kernels[0].reqd_work_group_size[1], 2u);
  ASSERT_EQ(kernels[0].args.size(), 1u);
  EXPECT_EQ(kernels[0].args[0].address_space, rt::AddressSpace::global);
  EXPECT_EQ(kernels[0].args[0].size, 4u);
}

TEST(KernelMetadata, NumbersOutOfRangeAreRefusedNotWrapped) {
  std::string e = metadata_error(
      R"({"version":1,"kernels":[{"name":"k","local_bytes":4294967295,"private_bytes":0,)"
      R"("sgpr":32,"vgpr":8,"args":[]}]})");
  EXPECT_NE(e.find("kernel 'k': \"local_bytes\" is 4294967295 (at most 268435456)"),
            std::string::npos)
      << e;
  e = metadata_error(
      R"({"version":1,"kernels":[{"name":"k","local_bytes":0,"private_bytes":0,"sgpr":32,)"
      R"("vgpr":8,"args":[{"name":"x","type":"int","address_space":"private","offset":1099511627776,"size":4}]}]})");
  EXPECT_NE(e.find("argument 0 ('x') of kernel 'k': \"offset\" is 1099511627776 (at most 65536)"),
            std::string::npos)
      << e;
  e = metadata_error(
      R"({"version":1,"kernels":[{"name":"k","local_bytes":0,"private_bytes":0,"sgpr":32,)"
      R"("vgpr":8,"args":[{"name":"x","type":"int","address_space":"private","offset":65532,"size":8}]}]})");
  EXPECT_NE(e.find("bytes [65532, 65540) leave the 65536-byte argument buffer"), std::string::npos)
      << e;
  e = metadata_error(
      R"({"version":1,"kernels":[{"name":"k","local_bytes":-1,"private_bytes":0,"sgpr":32,"vgpr":8,"args":[]}]})");
  EXPECT_NE(e.find("\"local_bytes\" is -1, not an unsigned integer"), std::string::npos) << e;
  e = metadata_error(
      R"({"version":1,"kernels":[{"name":"k","local_bytes":0,"private_bytes":0,"sgpr":32.5,"vgpr":8,"args":[]}]})");
  EXPECT_NE(e.find("\"sgpr\" is 32.5, not an unsigned integer"), std::string::npos) << e;
  e = metadata_error(
      document("", "", "\"version\":1,").replace(document().find("\"vgpr\":8"), 8, "\"vgpr\":257"));
  EXPECT_NE(e.find("\"vgpr\" is 257 (at most 256)"), std::string::npos) << e;
  e = metadata_error(document("\"reqd_work_group_size\":[8,0,1],"));
  EXPECT_NE(e.find("\"reqd_work_group_size\" element 1 is 0"), std::string::npos) << e;
  e = metadata_error(document("\"reqd_work_group_size\":[8,1],"));
  EXPECT_NE(e.find("has 2 elements, not 3"), std::string::npos) << e;
}

// The one writer (the compiler's) and the one reader agree on every field, and the reader
// refuses what a writer of another version records.
TEST(KernelMetadata, WriterAndReaderRoundTrip) {
  rt::KernelInfo k;
  k.name = "k\"1";  // escaped by the writer
  k.local_bytes = 384;
  k.private_bytes = 96;
  k.stack_bytes = 6464;
  k.sgpr = 36;
  k.vgpr = 12;
  k.reqd_work_group_size[0] = 8, k.reqd_work_group_size[1] = 4, k.reqd_work_group_size[2] = 1;
  k.attributes = "vec_type_hint(float4) reqd_work_group_size(8,4,1)";
  k.args = {{"out", "float*", rt::AddressSpace::global, "restrict", 0, 4},
            {"table", "int*", rt::AddressSpace::constant, "const", 4, 4},
            {"scratch", "int*", rt::AddressSpace::local, "", 8, 4},
            {"v", "int4", rt::AddressSpace::private_, "", 16, 16}};
  rt::KernelInfo plain;
  plain.name = "plain";
  const std::string json = rt::write_kernel_metadata(std::vector<rt::KernelInfo>{k, plain});
  const std::vector<rt::KernelInfo> read = rt::parse_kernel_metadata(json);
  ASSERT_EQ(read.size(), 2u);
  EXPECT_EQ(read[0].name, k.name);
  EXPECT_EQ(read[0].local_bytes, 384u);
  EXPECT_EQ(read[0].private_bytes, 96u);
  EXPECT_EQ(read[0].stack_bytes, 6464u);
  EXPECT_EQ(read[1].stack_bytes, ventus::abi::kWarpStackBytes);
  EXPECT_EQ(read[0].sgpr, 36u);
  EXPECT_EQ(read[0].vgpr, 12u);
  EXPECT_EQ(read[0].reqd_work_group_size[1], 4u);
  EXPECT_EQ(read[1].reqd_work_group_size[0], 0u);
  EXPECT_EQ(read[0].attributes, k.attributes);
  EXPECT_EQ(read[1].attributes, "");
  ASSERT_EQ(read[0].args.size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(read[0].args[i].name, k.args[i].name);
    EXPECT_EQ(read[0].args[i].type, k.args[i].type);
    EXPECT_EQ(read[0].args[i].address_space, k.args[i].address_space);
    EXPECT_EQ(read[0].args[i].qualifiers, k.args[i].qualifiers);
    EXPECT_EQ(read[0].args[i].offset, k.args[i].offset);
    EXPECT_EQ(read[0].args[i].size, k.args[i].size);
  }
  const std::string version = "\"version\":" + std::to_string(rt::kKernelMetadataVersion);
  ASSERT_EQ(json.find(version), 1u) << json;
  std::string other = json;
  other.replace(1, version.size(), "\"version\":" + std::to_string(rt::kKernelMetadataVersion + 1));
  EXPECT_NE(metadata_error(other).find("this runtime reads version"), std::string::npos);
}

// Binaries of version 1 (before kernels declared their warp stack) keep the start code's
// 1 KiB; a declared stack must be one the start code's layout can hold.
TEST(KernelMetadata, WarpStackOfVersionOneAndItsRange) {
  const std::vector<rt::KernelInfo> old = rt::parse_kernel_metadata(document());
  ASSERT_EQ(old.size(), 1u);
  EXPECT_EQ(old[0].stack_bytes, 1024u);
  const std::vector<rt::KernelInfo> declared =
      rt::parse_kernel_metadata(document("\"stack_bytes\":6464,", "", "\"version\":2,"));
  EXPECT_EQ(declared[0].stack_bytes, 6464u);
  std::string e = metadata_error(document("\"stack_bytes\":512,", "", "\"version\":2,"));
  EXPECT_NE(e.find("kernel 'k': \"stack_bytes\" is 512 (a multiple of 4, at least the start "
                   "code's 1024)"),
            std::string::npos)
      << e;
  e = metadata_error(document("\"stack_bytes\":1026,", "", "\"version\":2,"));
  EXPECT_NE(e.find("\"stack_bytes\" is 1026"), std::string::npos) << e;
  e = metadata_error(document("\"stack_bytes\":4294967296,", "", "\"version\":2,"));
  EXPECT_NE(e.find("\"stack_bytes\" is 4294967296 (at most 268435456)"), std::string::npos) << e;
}

TEST(KernelMetadata, UnknownMissingAndWrongFieldsAreRefused) {
  std::string e = metadata_error(document("\"local_size\":4,"));
  EXPECT_NE(e.find("kernel 'k': unknown field \"local_size\""), std::string::npos) << e;
  e = metadata_error(document("", "\"align\":4,"));
  EXPECT_NE(e.find("argument 0 ('out') of kernel 'k': unknown field \"align\""), std::string::npos)
      << e;
  e = metadata_error(document("", "", "\"version\":1,\"extra\":0,"));
  EXPECT_NE(e.find("unknown field \"extra\""), std::string::npos) << e;
  e = metadata_error(document("", "", ""));
  EXPECT_NE(e.find("missing field \"version\""), std::string::npos) << e;
  e = metadata_error(document("", "", "\"version\":3,"));
  EXPECT_NE(e.find("version 3 (this runtime reads versions 1 to 2)"), std::string::npos) << e;
  e = metadata_error(document("", "", "\"version\":0,"));
  EXPECT_NE(e.find("version 0 (this runtime reads versions 1 to 2)"), std::string::npos) << e;
  // Version 2 requires the warp stack; version 1 has none.
  e = metadata_error(document("", "", "\"version\":2,"));
  EXPECT_NE(e.find("kernel 'k': missing field \"stack_bytes\""), std::string::npos) << e;
  e = metadata_error(document("\"stack_bytes\":2048,"));
  EXPECT_NE(e.find("kernel 'k': unknown field \"stack_bytes\""), std::string::npos) << e;
  e = metadata_error(
      R"({"version":1,"kernels":[{"name":"k","local_bytes":0,"private_bytes":0,"sgpr":32,"args":[]}]})");
  EXPECT_NE(e.find("kernel 'k': missing field \"vgpr\""), std::string::npos) << e;
  e = metadata_error(document("", "").replace(document().find("\"global\""), 8, "\"shared\""));
  EXPECT_NE(e.find("address space \"shared\""), std::string::npos) << e;
  e = metadata_error(R"({"version":1,"kernels":[1]})");
  EXPECT_NE(e.find("kernel 0: not an object but number"), std::string::npos) << e;
  e = metadata_error(R"({"version":1,"kernels":{}})");
  EXPECT_NE(e.find("\"kernels\" is not an array"), std::string::npos) << e;
  const std::string one = document();
  const std::string kernel = one.substr(one.find('[') + 1, one.rfind(']') - one.find('[') - 1);
  e = metadata_error("{\"version\":1,\"kernels\":[" + kernel + "," + kernel + "]}");
  EXPECT_NE(e.find("kernel 'k' is described twice"), std::string::npos) << e;
  e = metadata_error("{\"version\":1,");
  EXPECT_NE(e.find("malformed .ventus.kernels section: "), std::string::npos) << e;
}

// A program with kernel "k" (it returns at once) and the given metadata.
rt::Program program_with_metadata(const std::string& json) {
  return ventus::test::with_kernel_metadata(
      ventus::test::program_from_text("k.s",
                                      ".text\n.globl k\n.type k, @function\nk:\n  ret\n"
                                      ".size k, .-k\n")
          .image(),
      json);
}

TEST(KernelMetadata, ElfFilesNameTheFile) {
  ventus::elf::Image image = program_with_metadata(document()).image();
  for (ventus::elf::Section& s : image.sections)
    if (s.name == ".ventus.kernels") s.bytes[1] = '!';
  const std::vector<uint8_t> bytes = ventus::elf::write(image);
  try {
    rt::Program::from_elf_bytes(bytes, "bad.elf");
    FAIL() << "a malformed section was accepted";
  } catch (const ventus::Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("bad.elf: malformed .ventus.kernels section", 0), 0u)
        << e.what();
  }
}

TEST(LocalMemoryLayout, TotalsPastTheSmSayByHowMuch) {
  rt::Device device;  // 64 KiB of local memory per SM
  rt::Buffer out(device, 4);
  const rt::Program program = program_with_metadata(
      R"({"version":1,"kernels":[{"name":"k","local_bytes":65536,"private_bytes":0,"sgpr":32,)"
      R"("vgpr":8,"args":[{"name":"out","type":"int*","address_space":"global","offset":0,"size":4}]}]})");
  std::string e;
  try {
    rt::launch(device, program, "k", {32}, {32}, out);
  } catch (const ventus::Error& error) {
    e = error.what();
  }
  EXPECT_NE(e.find("a workgroup needs 66560 bytes of local memory (1 warps x 1024 bytes of stack "
                   "+ 65536 bytes of local data); an SM has 65536: 1024 bytes too many"),
            std::string::npos)
      << e;
}

TEST(LocalMemoryLayout, LocalArgumentsOf4GiBAreNotTruncated) {
  rt::Device device;
  const rt::Program program = program_with_metadata(
      R"({"version":1,"kernels":[{"name":"k","local_bytes":0,"private_bytes":0,"sgpr":32,)"
      R"("vgpr":8,"args":[{"name":"scratch","type":"int*","address_space":"local","offset":0,"size":4}]}]})");
  // 2^32 + 16 bytes: truncated to 32 bits this was 16 bytes, and the launch ran.
  const rt::Arg scratch = rt::Arg::local((uint64_t{1} << 32) + 16);
  std::string e;
  try {
    rt::launch(device, program, "k", {32}, {32}, {scratch});
  } catch (const ventus::Error& error) {
    e = error.what();
  }
  // 1 KiB of stack + 2^32 + 128 bytes of local data.
  EXPECT_NE(e.find("a workgroup needs 4294968448 bytes of local memory"), std::string::npos) << e;
  // Several that fit alone but not together.
  const rt::Program two = program_with_metadata(
      R"({"version":1,"kernels":[{"name":"k","local_bytes":0,"private_bytes":0,"sgpr":32,"vgpr":8,"args":[)"
      R"({"name":"a","type":"int*","address_space":"local","offset":0,"size":4},)"
      R"({"name":"b","type":"int*","address_space":"local","offset":4,"size":4}]}]})");
  e.clear();
  try {
    rt::launch(device, two, "k", {32}, {32}, {rt::Arg::local(40000), rt::Arg::local(40000)});
  } catch (const ventus::Error& error) {
    e = error.what();
  }
  // Each buffer takes 40064 bytes (kLocalDataAlign = 128): 1024 + 2 x 40064 - 65536.
  EXPECT_NE(e.find("an SM has 65536: 15616 bytes too many"), std::string::npos) << e;
}

}  // namespace
