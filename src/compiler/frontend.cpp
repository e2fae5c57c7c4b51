// The front end of `ventus cc`: clang in process, the builtin library, LLVM's optimizer.
// See frontend.h and docs/compiler.md.
#include "frontend.h"

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/CodeGen/ModuleBuilder.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <fmt/format.h>
#include <llvm/ADT/Triple.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Support/xxhash.h>
#include <llvm/Transforms/IPO/AlwaysInliner.h>
#include <llvm/Transforms/IPO/GlobalDCE.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "backend.h"
#include "embedded.h"
#include "frontend_config.h"
#include "ventus/abi.h"

namespace ventus::cc::frontend {
namespace {

// Where the in-memory device_features.h lives for clang (a path no real file has).
constexpr char kFeaturesHeaderPath[] = "/<ventus>/device_features.h";
// The search directory of Options::headers (a path no real directory has), ahead of -I.
constexpr char kHeadersDir[] = "/<ventus-headers>";

// "CL1.2" for any spelling of the supported versions, "" for others.
std::string normalized_cl_std(std::string_view s) {
  std::string upper(s);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (const char* v : {"CL1.0", "CL1.1", "CL1.2", "CL2.0", "CL3.0"})
    if (upper == v) return upper;
  return "";
}

// The file name clang sees: never one that reads as an option or as stdin ("-").
std::string main_file_name(const Options& options) {
  if (options.file_name.empty()) return "<source>";
  if (options.file_name[0] == '-') return "./" + options.file_name;
  return options.file_name;
}

// The file system clang reads: the real one, under an in-memory one holding
// Options::headers twice, in kHeadersDir (searched first, -I) and in the source's
// directory (where a quoted include looks before any search directory), so that an
// in-memory header wins over a real file of the same name. nullptr (and an error) for a
// header without a name or given twice.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> file_system(const Options& options,
                                                            const std::string& file_name,
                                                            std::string& diagnostics) {
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> real = llvm::vfs::getRealFileSystem();
  if (options.headers.empty()) return real;
  llvm::SmallString<256> source_dir(file_name);
  llvm::sys::path::remove_filename(source_dir);
  if (real->makeAbsolute(source_dir)) source_dir.clear();  // no current directory
  auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  std::set<std::string> names;
  for (const auto& [name, contents] : options.headers) {
    if (name.empty() || !names.insert(name).second) {
      diagnostics += name.empty() ? "error: an in-memory header without a name\n"
                                  : fmt::format("error: in-memory header '{}' given twice\n", name);
      return nullptr;
    }
    std::vector<llvm::SmallString<256>> paths;
    if (llvm::sys::path::is_absolute(name)) {
      paths.emplace_back(name);
    } else {
      paths.emplace_back(kHeadersDir);
      if (!source_dir.empty()) paths.push_back(source_dir);
      for (llvm::SmallString<256>& path : paths) llvm::sys::path::append(path, name);
    }
    for (llvm::SmallString<256>& path : paths) {
      llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true);
      // False when the path is taken (a directory of another header's path).
      if (!memory->addFile(path, 0, llvm::MemoryBuffer::getMemBufferCopy(contents, name))) {
        diagnostics += fmt::format("error: in-memory header '{}' conflicts with another\n", name);
        return nullptr;
      }
    }
  }
  auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(real);
  overlay->pushOverlay(memory);  // the last pushed is looked in first
  return overlay;
}

// Gives every global variable of the module that clang is building its declaration's
// position (backend::kDeclarationMetadata), for the back end's messages about it.
void record_declarations(clang::CodeGenAction& action, clang::SourceManager& sources) {
  clang::CodeGenerator* generator = action.getCodeGenerator();
  llvm::Module* module = generator ? generator->GetModule() : nullptr;
  if (!module) return;
  llvm::LLVMContext& context = module->getContext();
  for (llvm::GlobalVariable& variable : module->globals()) {
    const clang::Decl* decl = generator->GetDeclForMangledName(variable.getName());
    if (!decl) continue;
    const clang::PresumedLoc loc = sources.getPresumedLoc(decl->getLocation());
    if (loc.isInvalid()) continue;
    const std::string where =
        fmt::format("{}:{}:{}", loc.getFilename(), loc.getLine(), loc.getColumn());
    variable.setMetadata(backend::kDeclarationMetadata,
                         llvm::MDNode::get(context, llvm::MDString::get(context, where)));
  }
}

// Numeric literals longer than this are errors (docs/compiler.md, "Limits and errors"):
// LLVM 15's decimal-to-float conversion writes past a stack buffer for a significand of
// more than about 30,000 digits, corrupting the compiling thread beyond recovery.
constexpr size_t kMaxNumericLiteral = 1024;

// Reports numeric literals longer than kMaxNumericLiteral (after macro expansion, in every
// file) and shortens each to its first digit, which clang then converts harmlessly; the
// error fails the compilation.
void limit_numeric_literals(clang::CompilerInstance& ci) {
  clang::DiagnosticsEngine& diags = ci.getDiagnostics();
  const unsigned too_long =
      diags.getCustomDiagID(clang::DiagnosticsEngine::Error,
                            "numeric literal of %0 characters; at most %1 are supported");
  ci.getPreprocessor().setTokenWatcher([&diags, too_long](const clang::Token& token) {
    if (!token.is(clang::tok::numeric_constant) || token.getLength() <= kMaxNumericLiteral) return;
    diags.Report(token.getLocation(), too_long)
        << static_cast<unsigned>(token.getLength()) << static_cast<unsigned>(kMaxNumericLiteral);
    // The token is the preprocessor's own (Preprocessor::Lex's result), passed as const.
    // A pp-number starts with a digit or with '.' and a digit.
    auto& shortened = const_cast<clang::Token&>(token);
    const char* spelling = token.getLiteralData();
    shortened.setLength(spelling && spelling[0] == '.' ? 2 : 1);
  });
}

// Passes clang's diagnostics to the printer, except repeated warnings: of one warning text
// (any location) only the first kShownCopies are shown, with their notes. A kernel that
// repeats a construct otherwise buries its errors under hundreds of copies (272 of "double
// precision constant requires cl_khr_fp64" in one Rodinia kernel: 73 KB of build log with
// the error last, where a 64 KiB log buffer showed nothing). summarize() says what was
// left out.
class RepeatedWarningFilter : public clang::DiagnosticConsumer {
 public:
  static constexpr unsigned kShownCopies = 3;

  explicit RepeatedWarningFilter(clang::DiagnosticConsumer& printer) : printer_(printer) {}

  void BeginSourceFile(const clang::LangOptions& lang, const clang::Preprocessor* pp) override {
    printer_.BeginSourceFile(lang, pp);
  }
  void EndSourceFile() override { printer_.EndSourceFile(); }
  void finish() override { printer_.finish(); }

  void HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                        const clang::Diagnostic& info) override {
    DiagnosticConsumer::HandleDiagnostic(level, info);  // counts every warning and error
    if (level != clang::DiagnosticsEngine::Note) {
      showing_ = true;
      if (level == clang::DiagnosticsEngine::Warning) {
        llvm::SmallString<128> text;
        info.FormatDiagnostic(text);
        auto [it, first] = copies_.try_emplace(std::string(text.str()), 0);
        if (first) order_.push_back(it->first);
        showing_ = ++it->second <= kShownCopies;
        if (!showing_) ++hidden_;
      }
    }
    if (showing_) printer_.HandleDiagnostic(level, info);  // a note goes with its warning
  }

  unsigned hidden() const { return hidden_; }

  // One line per warning with hidden copies, in the order the warnings first appeared.
  void summarize(llvm::raw_ostream& out) const {
    for (const std::string& text : order_)
      if (const unsigned n = copies_.at(text); n > kShownCopies)
        out << fmt::format("note: ... and {} more like this (not shown): warning: {}\n",
                           n - kShownCopies, text);
  }

 private:
  clang::DiagnosticConsumer& printer_;
  std::map<std::string, unsigned> copies_;  // warning text -> how many
  std::vector<std::string> order_;
  unsigned hidden_ = 0;
  bool showing_ = true;  // whether the last warning or error was shown (its notes follow it)
};

// clang: source -> unoptimized module (nullptr on errors). LLVM passes are disabled here
// (-disable-llvm-passes) and run after the library is linked; the -O level still shapes
// clang's IR (TBAA, lifetime markers, noinline at -O0).
std::unique_ptr<llvm::Module> parse(std::string_view source, const Options& options,
                                    const std::string& cl_std, int opt_level,
                                    llvm::LLVMContext& context, std::string& diagnostics) {
  const std::string file_name = main_file_name(options);
  std::vector<std::string> args = {
      "-triple", kTriple, "-x", "cl", "-cl-std=" + cl_std, VENTUS_CL_EXT_FLAG,
      // LLVM 15's default, and what the back end and the library are written for.
      "-opaque-pointers", "-resource-dir", VENTUS_CLANG_RESOURCE_DIR,
      // opencl-c-base.h, with the builtin functions declared by clang itself (as the
      // clang driver does): much faster than parsing all of opencl-c.h.
      "-finclude-default-header", "-fdeclare-opencl-builtins", "-include", kFeaturesHeaderPath,
      // The host's /usr/include is not the device's: only clang's own headers and -I.
      "-nostdsysteminc", fmt::format("-O{}", opt_level), "-disable-O0-optnone",
      "-disable-llvm-passes",
      // clang's verifier aborts the process on a broken module (clang 15 emits one for
      // __atomic_* builtins on __global pointers); build_module verifies and reports.
      "-disable-llvm-verifier",
      // Line tables give the back end file:line:column for its messages.
      "-debug-info-kind=line-tables-only", "-main-file-name", file_name, "-cl-kernel-arg-info",
      // The driver launches uniform workgroups only (the global size must be a multiple
      // of the local size), in every OpenCL C version.
      "-cl-uniform-work-group-size", "-ferror-limit", "20"};
  for (const std::string& d : options.defines) args.push_back("-D" + d);
  if (!options.headers.empty()) args.push_back(std::string("-I") + kHeadersDir);
  for (const std::string& i : options.include_dirs) args.push_back("-I" + i);
  args.insert(args.end(), options.extra_args.begin(), options.extra_args.end());
  args.push_back(file_name);
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());

  llvm::raw_string_ostream out(diagnostics);
  auto invocation = std::make_shared<clang::CompilerInvocation>();
  {
    // Option errors have no source location, which TextDiagnosticPrinter prints without
    // the source manager that does not exist yet.
    llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> diag_options = new clang::DiagnosticOptions;
    clang::TextDiagnosticPrinter printer(out, diag_options.get());
    clang::DiagnosticsEngine diags(new clang::DiagnosticIDs, diag_options, &printer, false);
    if (!clang::CompilerInvocation::CreateFromArgs(*invocation, argv, diags) ||
        diags.hasErrorOccurred())
      return nullptr;
  }
  if (invocation->getFrontendOpts().Inputs.size() != 1) {
    out << "error: expected one OpenCL C source (extra arguments name more inputs)\n";
    return nullptr;
  }
  // Before the remapped buffers, which only the source manager frees.
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> files =
      file_system(options, file_name, diagnostics);
  if (!files) return nullptr;
  clang::PreprocessorOptions& pp = invocation->getPreprocessorOpts();
  pp.addRemappedFile(file_name, llvm::MemoryBuffer::getMemBufferCopy(source, file_name).release());
  pp.addRemappedFile(
      kFeaturesHeaderPath,
      llvm::MemoryBuffer::getMemBuffer(embedded::device_features_header(), kFeaturesHeaderPath)
          .release());

  // The printer shares the invocation's diagnostic options (-w, -Werror, -ferror-limit).
  clang::TextDiagnosticPrinter printer(out, &invocation->getDiagnosticOpts());
  RepeatedWarningFilter filter(printer);
  clang::CompilerInstance ci;
  ci.setInvocation(invocation);
  ci.createDiagnostics(&filter, /*ShouldOwnClient=*/false);
  ci.createFileManager(files);
  if (!ci.createTarget()) return nullptr;
  // What CompilerInstance::ExecuteAction does, without the "N errors generated." line it
  // writes to stderr.
  clang::EmitLLVMOnlyAction action(&context);
  if (action.BeginSourceFile(ci, ci.getFrontendOpts().Inputs[0])) {
    limit_numeric_literals(ci);
    if (llvm::Error error = action.Execute()) llvm::consumeError(std::move(error));
    if (!ci.getDiagnostics().hasErrorOccurred()) record_declarations(action, ci.getSourceManager());
    action.EndSourceFile();
  }
  filter.finish();
  filter.summarize(out);
  std::unique_ptr<llvm::Module> module = action.takeModule();
  // clang's closing count: "1 warning and 2 errors generated.", and the hidden copies.
  const unsigned warnings = filter.getNumWarnings(), errors = filter.getNumErrors();
  if (warnings) out << warnings << (warnings == 1 ? " warning" : " warnings");
  if (warnings && errors) out << " and ";
  if (errors) out << errors << (errors == 1 ? " error" : " errors");
  if (warnings || errors) out << " generated";
  if (const unsigned hidden = filter.hidden())
    out << " (" << hidden << " repeated " << (hidden == 1 ? "warning" : "warnings")
        << " not shown)";
  if (warnings || errors) out << ".\n";
  if (errors || ci.getDiagnostics().hasErrorOccurred() || !module) return nullptr;
  return module;
}

// 64-bit division and remainder: the device divides 32-bit words only, so every i64
// udiv/sdiv/urem/srem of the program (clang's unoptimized IR; element by element for
// vectors of long) becomes a call to the library's __vt_udiv64, __vt_sdiv64,
// __vt_urem64 or __vt_srem64 (lib/int64.cl, RISC-V results for x / 0 and LONG_MIN / -1).
// It runs before the library is linked, so LinkOnlyNeeded pulls the functions in (they
// are always_inline); LLVM's passes do not create 64-bit divisions afterwards. Division
// by a constant power of two (clang's IR is unoptimized here; the optimizer would have
// turned it into shifts) becomes shifts directly.
llvm::Value* lower_int64_division_element(llvm::IRBuilder<>& b, llvm::Module& module,
                                          llvm::Instruction::BinaryOps op, llvm::Value* x,
                                          llvm::Value* y) {
  using BO = llvm::Instruction::BinaryOps;
  const bool is_signed = op == BO::SDiv || op == BO::SRem;
  const bool is_div = op == BO::UDiv || op == BO::SDiv;
  if (auto* c = llvm::dyn_cast<llvm::ConstantInt>(y)) {
    const llvm::APInt& d = c->getValue();
    // Unsigned: any power of two; signed: 1 .. 2^62 (2^63 is LONG_MIN there).
    if (d.isPowerOf2() && (!is_signed || !d.isNegative())) {
      const uint64_t k = d.logBase2();
      if (!is_signed) return is_div ? b.CreateLShr(x, k) : b.CreateAnd(x, d.getZExtValue() - 1);
      if (k == 0) return is_div ? x : b.getInt64(0);
      // Truncating toward zero: negative dividends get 2^k - 1 added before the shift.
      llvm::Value* bias = b.CreateLShr(b.CreateAShr(x, 63), 64 - k);
      llvm::Value* biased = b.CreateAdd(x, bias);
      if (is_div) return b.CreateAShr(biased, k);
      return b.CreateSub(b.CreateAnd(biased, d.getZExtValue() - 1), bias);
    }
  }
  const char* name = op == BO::UDiv   ? "__vt_udiv64"
                     : op == BO::SDiv ? "__vt_sdiv64"
                     : op == BO::URem ? "__vt_urem64"
                                      : "__vt_srem64";
  llvm::Type* i64 = b.getInt64Ty();
  llvm::FunctionCallee callee =
      module.getOrInsertFunction(name, llvm::FunctionType::get(i64, {i64, i64}, false));
  if (auto* f = llvm::dyn_cast<llvm::Function>(callee.getCallee()))
    f->setCallingConv(llvm::CallingConv::SPIR_FUNC);
  llvm::CallInst* call = b.CreateCall(callee, {x, y});
  call->setCallingConv(llvm::CallingConv::SPIR_FUNC);
  return call;
}

// Conversions between i64 and float: the device converts 32-bit words only, so
// sitofp/uitofp i64 -> float and fptosi/fptoui float -> i64 become calls to the
// library's __vt_i64_to_f32, __vt_u64_to_f32 (nearest even), __vt_f32_to_i64 and
// __vt_f32_to_u64 (toward zero, RISC-V's fcvt.l.s/fcvt.lu.s results out of range).
llvm::Value* lower_int64_conversion_element(llvm::IRBuilder<>& b, llvm::Module& module,
                                            llvm::Instruction::CastOps op, llvm::Value* x) {
  using CO = llvm::Instruction::CastOps;
  const char* name = op == CO::SIToFP   ? "__vt_i64_to_f32"
                     : op == CO::UIToFP ? "__vt_u64_to_f32"
                     : op == CO::FPToSI ? "__vt_f32_to_i64"
                                        : "__vt_f32_to_u64";
  const bool to_float = op == CO::SIToFP || op == CO::UIToFP;
  llvm::Type* i64 = b.getInt64Ty();
  llvm::Type* f32 = b.getFloatTy();
  llvm::FunctionCallee callee = module.getOrInsertFunction(
      name, llvm::FunctionType::get(to_float ? f32 : i64, {to_float ? i64 : f32}, false));
  if (auto* f = llvm::dyn_cast<llvm::Function>(callee.getCallee()))
    f->setCallingConv(llvm::CallingConv::SPIR_FUNC);
  llvm::CallInst* call = b.CreateCall(callee, {x});
  call->setCallingConv(llvm::CallingConv::SPIR_FUNC);
  return call;
}

// Conversions to and from double: the device converts 32-bit words only (its binary64
// arithmetic has no conversion rows), so every fpext float -> double, fptrunc double ->
// float, int -> double and double -> int becomes a call to the library's soft-float
// routine (lib/fp64.cl), which takes and returns the double's bits as a ulong. Integers
// narrower than 32 bits go through int; double -> int is RISC-V's fcvt.w.d/fcvt.l.d
// (toward zero, NaN and too large values give the maximum, too small ones the minimum).
bool is_fp64_conversion(const llvm::CastInst& cast) {
  using CO = llvm::Instruction::CastOps;
  llvm::Type* from = cast.getSrcTy()->getScalarType();
  llvm::Type* to = cast.getDestTy()->getScalarType();
  switch (cast.getOpcode()) {
    case CO::FPExt: return to->isDoubleTy() && from->isFloatTy();
    case CO::FPTrunc: return from->isDoubleTy() && to->isFloatTy();
    case CO::SIToFP:
    case CO::UIToFP: return to->isDoubleTy();
    case CO::FPToSI:
    case CO::FPToUI: return from->isDoubleTy();
    default: return false;
  }
}

llvm::Value* lower_fp64_conversion_element(llvm::IRBuilder<>& b, llvm::Module& module,
                                           llvm::Instruction::CastOps op, llvm::Value* x,
                                           llvm::Type* to) {
  using CO = llvm::Instruction::CastOps;
  llvm::Type* i64 = b.getInt64Ty();
  llvm::Type* i32 = b.getInt32Ty();
  auto call = [&](const char* name, llvm::Type* result, llvm::Value* arg) {
    llvm::FunctionCallee callee =
        module.getOrInsertFunction(name, llvm::FunctionType::get(result, {arg->getType()}, false));
    if (auto* f = llvm::dyn_cast<llvm::Function>(callee.getCallee()))
      f->setCallingConv(llvm::CallingConv::SPIR_FUNC);
    llvm::CallInst* c = b.CreateCall(callee, {arg});
    c->setCallingConv(llvm::CallingConv::SPIR_FUNC);
    return c;
  };
  const unsigned int_bits = op == CO::SIToFP || op == CO::UIToFP
                                ? x->getType()->getIntegerBitWidth()
                                : (to->isIntegerTy() ? to->getIntegerBitWidth() : 0);
  switch (op) {
    case CO::FPExt: return b.CreateBitCast(call("__vt_f32_to_f64", i64, x), to);
    case CO::FPTrunc: return call("__vt_f64_to_f32", to, b.CreateBitCast(x, i64));
    case CO::SIToFP:
    case CO::UIToFP: {
      const bool s = op == CO::SIToFP;
      if (int_bits == 64)
        return b.CreateBitCast(call(s ? "__vt_i64_to_f64" : "__vt_u64_to_f64", i64, x), to);
      llvm::Value* word = s ? b.CreateSExtOrTrunc(x, i32) : b.CreateZExtOrTrunc(x, i32);
      return b.CreateBitCast(call(s ? "__vt_i32_to_f64" : "__vt_u32_to_f64", i64, word), to);
    }
    default: {
      const bool s = op == CO::FPToSI;
      llvm::Value* bits = b.CreateBitCast(x, i64);
      if (int_bits == 64) return call(s ? "__vt_f64_to_i64" : "__vt_f64_to_u64", i64, bits);
      return b.CreateTrunc(call(s ? "__vt_f64_to_i32" : "__vt_f64_to_u32", i32, bits), to);
    }
  }
}

// The i64 conversions lower_library_operations replaces (float only: conversions of double
// are is_fp64_conversion's, and half converts through float in clang's IR).
bool is_int64_float_conversion(const llvm::CastInst& cast) {
  using CO = llvm::Instruction::CastOps;
  switch (cast.getOpcode()) {
    case CO::SIToFP:
    case CO::UIToFP:
      return cast.getSrcTy()->getScalarType()->isIntegerTy(64) &&
             cast.getDestTy()->getScalarType()->isFloatTy();
    case CO::FPToSI:
    case CO::FPToUI:
      return cast.getSrcTy()->getScalarType()->isFloatTy() &&
             cast.getDestTy()->getScalarType()->isIntegerTy(64);
    default: return false;
  }
}

bool only_printf_uses(const llvm::Instruction& inst) {
  for (const llvm::User* user : inst.users()) {
    auto* call = llvm::dyn_cast<llvm::CallInst>(user);
    if (!call || !call->getCalledFunction() || call->getCalledFunction()->getName() != "printf")
      return false;
  }
  return true;
}

// The double of a float, exactly and without branches, for printf's promotion of a float
// (lib/fp64.cl's conversion rounds subnormals through its general packing routine, a loop
// of branches, and gives every NaN the canonical one; this keeps a NaN's sign and payload
// as the host's conversion does). The double's exponent field is the float's + 896; a
// subnormal a * 2^-149 is taken as the float a (an integer below 2^23, exact), whose
// exponent is then lowered by 149; infinity and NaN get the field 0x7ff.
llvm::Value* widen_float(llvm::IRBuilder<>& b, llvm::Value* x) {
  llvm::Type* i32 = b.getInt32Ty();
  auto constant = [&](uint32_t v) { return llvm::ConstantInt::get(i32, v); };
  llvm::Value* bits = b.CreateBitCast(x, i32);
  llvm::Value* sign = b.CreateAnd(bits, constant(0x80000000u));
  llvm::Value* magnitude = b.CreateAnd(bits, constant(0x7fffffffu));
  llvm::Value* subnormal = b.CreateICmpULT(magnitude, constant(0x00800000u));
  llvm::Value* special = b.CreateICmpUGE(magnitude, constant(0x7f800000u));
  llvm::Value* as_integer = b.CreateBitCast(b.CreateUIToFP(magnitude, b.getFloatTy()), i32);
  llvm::Value* m = b.CreateSelect(subnormal, as_integer, magnitude);
  llvm::Value* bias = b.CreateSelect(
      subnormal, constant((896u - 149u) << 20),
      b.CreateSelect(special, constant(0x7ff00000u - (0xffu << 20)), constant(896u << 20)));
  llvm::Value* high = b.CreateAdd(b.CreateLShr(m, 3), bias);
  high = b.CreateSelect(b.CreateICmpEQ(magnitude, constant(0)), constant(0), high);
  high = b.CreateOr(high, sign);
  llvm::Type* i64 = b.getInt64Ty();
  llvm::Value* word =
      b.CreateOr(b.CreateShl(b.CreateZExt(high, i64), 32), b.CreateZExt(b.CreateShl(m, 29), i64));
  return b.CreateBitCast(word, b.getDoubleTy());
}

// Replaces the module's 64-bit divisions and long<->float conversions (`conversions ==
// Lowering::int64`), or its conversions of double (`Lowering::fp64`), by library calls (or
// shifts); returns whether it changed anything. The 64-bit integer operations are lowered
// before the library is linked, and again after it for the library's own casts
// (convert.cl's convert_long(float), ...), whose functions then need a second link. The
// conversions of double are lowered after the optimizer, so that InstCombine can first
// shrink float arithmetic that C's promotions made double (`x * 0.5` of a float x) back to
// float where that is exact; their routines are then linked and optimized in.
enum class Lowering { int64, fp64 };

bool lower_library_operations(llvm::Module& module, Lowering lowering) {
  using BO = llvm::Instruction::BinaryOps;
  const bool fp64 = lowering == Lowering::fp64;
  std::vector<llvm::Instruction*> work;
  for (llvm::Function& f : module)
    for (llvm::Instruction& inst : llvm::instructions(f)) {
      if (auto* op = llvm::dyn_cast<llvm::BinaryOperator>(&inst)) {
        if (!fp64 &&
            (op->getOpcode() == BO::UDiv || op->getOpcode() == BO::SDiv ||
             op->getOpcode() == BO::URem || op->getOpcode() == BO::SRem) &&
            op->getType()->getScalarType()->isIntegerTy(64))
          work.push_back(op);
      } else if (auto* cast = llvm::dyn_cast<llvm::CastInst>(&inst)) {
        if (fp64 ? is_fp64_conversion(*cast) : is_int64_float_conversion(*cast))
          work.push_back(cast);
      }
    }
  for (llvm::Instruction* op : work) {
    llvm::IRBuilder<> b(op);  // inserts before it, with its line
    auto element = [&](llvm::Value* x, llvm::Value* y) -> llvm::Value* {
      if (auto* cast = llvm::dyn_cast<llvm::CastInst>(op)) {
        if (llvm::isa<llvm::FPExtInst>(cast) && x->getType()->isFloatTy() &&
            only_printf_uses(*cast))
          return widen_float(b, x);
        if (is_fp64_conversion(*cast))
          return lower_fp64_conversion_element(b, module, cast->getOpcode(), x,
                                               cast->getDestTy()->getScalarType());
        return lower_int64_conversion_element(b, module, cast->getOpcode(), x);
      }
      return lower_int64_division_element(b, module,
                                          llvm::cast<llvm::BinaryOperator>(op)->getOpcode(), x, y);
    };
    const bool binary = llvm::isa<llvm::BinaryOperator>(op);
    llvm::Value* result;
    if (auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(op->getType())) {
      result = llvm::PoisonValue::get(vector);
      for (unsigned i = 0; i < vector->getNumElements(); ++i) {
        llvm::Value* x = b.CreateExtractElement(op->getOperand(0), i);
        llvm::Value* y = binary ? b.CreateExtractElement(op->getOperand(1), i) : nullptr;
        result = b.CreateInsertElement(result, element(x, y), i);
      }
    } else {
      result = element(op->getOperand(0), binary ? op->getOperand(1) : nullptr);
    }
    if (llvm::isa<llvm::Instruction>(result) && result != op->getOperand(0)) result->takeName(op);
    op->replaceAllUsesWith(result);
    op->eraseFromParent();
  }
  return !work.empty();
}

// half (cl_khr_fp16): + - * and fmin/fmax/min/max stay half operations, which the back
// end selects to the device's fp16 instructions (has_half_instruction); fmuladd becomes
// a half multiply and add. The device has no fp16 instruction for the others (its 64-bit
// compute instruction has add, sub, mul, min and max only, and the RVV rows at SEW = 16
// would change the vtype that the guide fixes at compile time), so they are promoted:
// half -> float exactly (lib/fp16.cl's __vt_f16_to_f32 on the bits), the float operation,
// and one rounding back to nearest even (__vt_f32_to_f16). For / and sqrt that is the
// correctly rounded half result (float's 24-bit significand >= 2 * 11 + 2), and exact for
// compares and the rounding functions; fma is lib/fp16.cl's correctly rounded routine.
// For / sqrt and compares, whose NaN is the canonical one anyway, the conversions are the
// device's instructions (half_to_float_on_device).
// Negation, fabs and copysign work on the bits. Loads, stores, selects and moves of half
// stay half (16-bit data in the back end). The builtins that have no half overload in the
// library are promoted as calls: the float overload of the same name, or for
// select/bitselect the ushort one on the bits. Runs after the optimizer, which would
// otherwise shrink the promoted float operations back to half; the routines are calls, so
// it cannot.
llvm::Value* call_routine(llvm::IRBuilder<>& b, llvm::Module& module, const char* name,
                          llvm::Type* result, llvm::ArrayRef<llvm::Value*> args) {
  std::vector<llvm::Type*> types;
  for (llvm::Value* a : args) types.push_back(a->getType());
  llvm::FunctionCallee callee =
      module.getOrInsertFunction(name, llvm::FunctionType::get(result, types, false));
  if (auto* f = llvm::dyn_cast<llvm::Function>(callee.getCallee()))
    f->setCallingConv(llvm::CallingConv::SPIR_FUNC);
  llvm::CallInst* c = b.CreateCall(callee, args);
  c->setCallingConv(llvm::CallingConv::SPIR_FUNC);
  return c;
}

bool is_half(const llvm::Type* t) {
  return t->getScalarType()->isHalfTy();
}

llvm::Type* with_element(llvm::Type* t, llvm::Type* element) {
  if (auto* v = llvm::dyn_cast<llvm::FixedVectorType>(t))
    return llvm::FixedVectorType::get(element, v->getNumElements());
  return element;
}

// Applies `scalar` to each element of a vector value (or to the scalar itself).
llvm::Value* per_element(llvm::IRBuilder<>& b, llvm::Value* v, llvm::Type* result_element,
                         const std::function<llvm::Value*(llvm::Value*)>& scalar) {
  auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(v->getType());
  if (!vector) return scalar(v);
  llvm::Value* r =
      llvm::PoisonValue::get(llvm::FixedVectorType::get(result_element, vector->getNumElements()));
  for (unsigned i = 0; i < vector->getNumElements(); ++i)
    r = b.CreateInsertElement(r, scalar(b.CreateExtractElement(v, i)), i);
  return r;
}

llvm::Value* half_to_float(llvm::IRBuilder<>& b, llvm::Module& module, llvm::Value* v) {
  if (llvm::isa<llvm::Constant>(v))
    return b.CreateFPExt(v, with_element(v->getType(), b.getFloatTy()));
  return per_element(b, v, b.getFloatTy(), [&](llvm::Value* h) {
    return call_routine(b, module, "__vt_f16_to_f32", b.getFloatTy(),
                        {b.CreateBitCast(h, b.getInt16Ty())});
  });
}

llvm::Value* float_to_half(llvm::IRBuilder<>& b, llvm::Module& module, llvm::Value* v) {
  return per_element(b, v, b.getHalfTy(), [&](llvm::Value* f) {
    return b.CreateBitCast(call_routine(b, module, "__vt_f32_to_f16", b.getInt16Ty(), {f}),
                           b.getHalfTy());
  });
}

// The device's own half <-> float conversions (vfwcvt.xu.f.v / vfwcvt.x.f.v at SEW = 32,
// docs/isa.md; the back end selects __vt_cvt_*): one instruction instead of the ~20 of
// lib/fp16.cl's, exact and rounded to nearest even alike, but any NaN becomes the
// canonical one. So only for operands and results whose NaN is the canonical one anyway:
// those of /, sqrt and compares (the float operation gives the canonical NaN).
llvm::Value* device_conversion(llvm::IRBuilder<>& b, llvm::Module& module, const char* name,
                               llvm::Type* result, llvm::Value* x) {
  llvm::Value* call = call_routine(b, module, name, result, {x});
  llvm::Function* routine = llvm::cast<llvm::CallInst>(call)->getCalledFunction();
  routine->setDoesNotAccessMemory();
  routine->setDoesNotThrow();
  routine->setWillReturn();
  return call;
}

llvm::Value* half_to_float_on_device(llvm::IRBuilder<>& b, llvm::Module& module, llvm::Value* v) {
  if (llvm::isa<llvm::Constant>(v))
    return b.CreateFPExt(v, with_element(v->getType(), b.getFloatTy()));
  return per_element(b, v, b.getFloatTy(), [&](llvm::Value* h) {
    return device_conversion(b, module, "__vt_cvt_f16_f32", b.getFloatTy(),
                             b.CreateBitCast(h, b.getInt16Ty()));
  });
}

llvm::Value* float_to_half_on_device(llvm::IRBuilder<>& b, llvm::Module& module, llvm::Value* v) {
  return per_element(b, v, b.getHalfTy(), [&](llvm::Value* f) {
    return b.CreateBitCast(device_conversion(b, module, "__vt_cvt_f32_f16", b.getInt16Ty(), f),
                           b.getHalfTy());
  });
}

llvm::Value* double_to_half(llvm::IRBuilder<>& b, llvm::Module& module, llvm::Value* v) {
  return per_element(b, v, b.getHalfTy(), [&](llvm::Value* d) {
    return b.CreateBitCast(call_routine(b, module, "__vt_f64_to_f16", b.getInt16Ty(),
                                        {b.CreateBitCast(d, b.getInt64Ty())}),
                           b.getHalfTy());
  });
}

// The half -> bits operations: negation, fabs, copysign.
llvm::Value* half_bits(llvm::IRBuilder<>& b, llvm::Value* v,
                       const std::function<llvm::Value*(llvm::Value*)>& op) {
  llvm::Type* bits = with_element(v->getType(), b.getInt16Ty());
  return b.CreateBitCast(op(b.CreateBitCast(v, bits)), v->getType());
}

// The builtin called for a half builtin the library does not define: name and whether it
// works on the bits (select, bitselect: the ushort overload) or on the value (the float one).
std::optional<std::pair<std::string, bool>> promoted_builtin(llvm::StringRef name) {
  if (!name.startswith("_Z") || !name.contains("Dh")) return std::nullopt;
  size_t i = 2, length = 0;
  while (i < name.size() && std::isdigit(static_cast<unsigned char>(name[i])))
    length = length * 10 + (name[i++] - '0');
  const std::string base = name.substr(i, length).str();
  std::string params = name.substr(i + length).str();
  // A pointer to half (modf, fract, sincos) has no float stand-in.
  if (size_t p = params.find('P'); p != std::string::npos) {
    std::string pointee = params.substr(p + 1);
    if (pointee.rfind("U3AS", 0) == 0) pointee = pointee.substr(5);
    if (pointee.rfind("Dh", 0) == 0 || pointee.rfind("S", 0) == 0 ||
        (pointee.rfind("Dv", 0) == 0 && pointee.find("_Dh") == pointee.find('_')))
      return std::nullopt;
  }
  if (base == "nextafter") return std::nullopt;  // a float step is not a half step
  const bool bits = base == "select" || base == "bitselect";
  size_t at;
  while ((at = params.find("Dh")) != std::string::npos) params.replace(at, 2, bits ? "t" : "f");
  // select(ushortn, ushortn, ushortn): the third parameter is now the first one's type,
  // which the mangling names by substitution.
  if (bits) {
    const size_t underscore = params.find('_');
    if (params.rfind("Dv", 0) == 0 && underscore != std::string::npos) {
      const std::string vector = params.substr(0, underscore + 2);  // Dv<n>_t
      if (params == vector + "S_" + vector) params = vector + "S_S_";
    }
  }
  return std::make_pair(name.substr(0, i + length).str() + params, bits);
}

llvm::Value* lower_fp16_call(llvm::IRBuilder<>& b, llvm::Module& module, llvm::CallInst& call,
                             const std::string& name, bool bits) {
  // The relational functions of halfn give shortn; those of floatn give intn.
  static const std::set<std::string> relationals = {
      "isequal",     "isnotequal",    "isgreater",   "isgreaterequal", "isless",
      "islessequal", "islessgreater", "isfinite",    "isinf",          "isnan",
      "isnormal",    "isordered",     "isunordered", "signbit"};
  const llvm::StringRef mangled = call.getCalledFunction()->getName();
  size_t i = 2, length = 0;
  while (i < mangled.size() && std::isdigit(static_cast<unsigned char>(mangled[i])))
    length = length * 10 + (mangled[i++] - '0');
  const bool relational = relationals.count(mangled.substr(i, length).str()) != 0;
  std::vector<llvm::Value*> args;
  for (llvm::Value* a : call.args()) {
    if (!is_half(a->getType()))
      args.push_back(a);
    else if (bits)
      args.push_back(b.CreateBitCast(a, with_element(a->getType(), b.getInt16Ty())));
    else
      args.push_back(half_to_float(b, module, a));
  }
  llvm::Type* type = call.getType();
  llvm::Type* result = type;
  if (is_half(type))
    result = with_element(type, bits ? b.getInt16Ty() : b.getFloatTy());
  else if (relational && type->isVectorTy())
    result = with_element(type, b.getInt32Ty());  // shortn for half, intn for float
  llvm::Value* r = call_routine(b, module, name.c_str(), result, args);
  if (is_half(type)) return bits ? b.CreateBitCast(r, type) : float_to_half(b, module, r);
  return result == type ? r : b.CreateTrunc(r, type);
}

// The half operations the back end selects to the device's fp16 instructions
// (v64fadd.f16, v64fsub.f16, v64fmul.f16, v64fmin.f16, v64fmax.f16: binary16, rounded to
// nearest even, the same bits as the promotion, which rounds once a result that float
// holds exactly or correctly rounds with >= 2 x 11 + 2 bits).
bool has_half_instruction(const llvm::Instruction& inst) {
  switch (inst.getOpcode()) {
    case llvm::Instruction::FAdd:
    case llvm::Instruction::FSub:
    case llvm::Instruction::FMul: return true;
    default: break;
  }
  auto* call = llvm::dyn_cast<llvm::IntrinsicInst>(&inst);
  return call && (call->getIntrinsicID() == llvm::Intrinsic::minnum ||
                  call->getIntrinsicID() == llvm::Intrinsic::maxnum);
}

// fmin, fmax, min and max of half: llvm.minnum/maxnum on half, which the back end selects to
// v64fmin.f16/v64fmax.f16 (the float overloads are llvm.minnum/maxnum on float, the same
// RISC-V rule); not_intrinsic for any other call.
llvm::Intrinsic::ID half_min_max(const llvm::CallInst& call) {
  if (!is_half(call.getType()) || call.arg_size() != 2) return llvm::Intrinsic::not_intrinsic;
  const llvm::StringRef name = call.getCalledFunction()->getName();
  if (name.startswith("_Z4fmin") || name.startswith("_Z3min")) return llvm::Intrinsic::minnum;
  if (name.startswith("_Z4fmax") || name.startswith("_Z3max")) return llvm::Intrinsic::maxnum;
  return llvm::Intrinsic::not_intrinsic;
}

bool lower_fp16_operations(llvm::Module& module) {
  using CO = llvm::Instruction::CastOps;
  std::vector<llvm::Instruction*> work;
  for (llvm::Function& f : module)
    for (llvm::Instruction& inst : llvm::instructions(f)) {
      if (auto* call = llvm::dyn_cast<llvm::CallInst>(&inst)) {
        llvm::Function* callee = call->getCalledFunction();
        if (!callee) continue;
        if (callee->isIntrinsic()) {
          if ((is_half(call->getType()) ||
               (call->arg_size() > 0 && is_half(call->getArgOperand(0)->getType()))) &&
              !has_half_instruction(*call))
            work.push_back(call);
        } else if (callee->isDeclaration() && promoted_builtin(callee->getName())) {
          work.push_back(call);
        }
      } else if (llvm::isa<llvm::BinaryOperator>(inst) || llvm::isa<llvm::UnaryOperator>(inst) ||
                 llvm::isa<llvm::FCmpInst>(inst)) {
        if (is_half(inst.getOperand(0)->getType()) && !has_half_instruction(inst))
          work.push_back(&inst);
      } else if (auto* cast = llvm::dyn_cast<llvm::CastInst>(&inst)) {
        if (cast->getOpcode() != CO::BitCast &&
            (is_half(cast->getSrcTy()) || is_half(cast->getDestTy())))
          work.push_back(cast);
      }
    }
  for (llvm::Instruction* inst : work) {
    llvm::IRBuilder<> b(inst);
    llvm::Type* f32 = b.getFloatTy();
    llvm::Value* result = nullptr;
    auto operand = [&](unsigned n) { return inst->getOperand(n); };
    auto promote = [&](unsigned n) { return half_to_float(b, module, operand(n)); };
    auto on_device = [&](unsigned n) { return half_to_float_on_device(b, module, operand(n)); };
    // sqrt: the float instruction between the device's conversions (a NaN is the canonical
    // one either way).
    auto sqrt_on_device = [&] {
      return float_to_half_on_device(b, module,
                                     b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, on_device(0)));
    };
    if (auto* op = llvm::dyn_cast<llvm::BinaryOperator>(inst)) {
      if (op->getOpcode() == llvm::Instruction::FDiv)
        result = float_to_half_on_device(b, module, b.CreateFDiv(on_device(0), on_device(1)));
      else
        result = float_to_half(b, module, b.CreateBinOp(op->getOpcode(), promote(0), promote(1)));
    } else if (inst->getOpcode() == llvm::Instruction::FNeg) {
      result = half_bits(b, operand(0), [&](llvm::Value* x) {
        return b.CreateXor(x, llvm::ConstantInt::get(x->getType(), 0x8000));
      });
    } else if (auto* cmp = llvm::dyn_cast<llvm::FCmpInst>(inst)) {
      result = b.CreateFCmp(cmp->getPredicate(), on_device(0), on_device(1));
    } else if (auto* cast = llvm::dyn_cast<llvm::CastInst>(inst)) {
      llvm::Type* to = cast->getDestTy();
      llvm::Type* to_element = to->getScalarType();
      llvm::Type* from_element = cast->getSrcTy()->getScalarType();
      switch (cast->getOpcode()) {
        case CO::FPExt:
          result = promote(0);
          if (to_element->isDoubleTy()) result = b.CreateFPExt(result, to);
          break;
        case CO::FPTrunc:
          result = from_element->isDoubleTy() ? double_to_half(b, module, operand(0))
                                              : float_to_half(b, module, operand(0));
          break;
        case CO::SIToFP:
        case CO::UIToFP: {
          const bool s = cast->getOpcode() == CO::SIToFP;
          // Through float for 32 bits (exact below 2^24, and any larger value is beyond
          // half's range either way), through double for 64.
          if (from_element->getIntegerBitWidth() > 32) {
            llvm::Type* f64 = with_element(to, b.getDoubleTy());
            result = double_to_half(
                b, module, s ? b.CreateSIToFP(operand(0), f64) : b.CreateUIToFP(operand(0), f64));
          } else {
            llvm::Type* wide = with_element(to, b.getInt32Ty());
            llvm::Value* x = s ? b.CreateSExt(operand(0), wide) : b.CreateZExt(operand(0), wide);
            llvm::Type* f = with_element(to, f32);
            result = float_to_half(b, module, s ? b.CreateSIToFP(x, f) : b.CreateUIToFP(x, f));
          }
          break;
        }
        default: {  // FPToSI, FPToUI: the only other casts of half
          llvm::Value* x = promote(0);
          if (to_element->getIntegerBitWidth() > 32)
            x = b.CreateFPExt(x, with_element(to, b.getDoubleTy()));
          result = b.CreateCast(cast->getOpcode(), x, to);
          break;
        }
      }
    } else {
      auto* call = llvm::cast<llvm::CallInst>(inst);
      if (!call->getCalledFunction()->isIntrinsic()) {
        auto [name, bits] = *promoted_builtin(call->getCalledFunction()->getName());
        if (const llvm::Intrinsic::ID id = half_min_max(*call);
            id != llvm::Intrinsic::not_intrinsic) {
          // fmin(halfn, half): the scalar for every element.
          llvm::Value* y = operand(1);
          if (auto* v = llvm::dyn_cast<llvm::FixedVectorType>(call->getType());
              v && !y->getType()->isVectorTy())
            y = b.CreateVectorSplat(v->getNumElements(), y);
          result = b.CreateBinaryIntrinsic(id, operand(0), y);
        } else if (call->getCalledFunction()->getName().startswith("_Z4sqrtDh") ||
                   call->getCalledFunction()->getName().startswith("_Z4sqrtDv")) {
          result = sqrt_on_device();
        } else {
          result = lower_fp16_call(b, module, *call, name, bits);
        }
      } else {
        const llvm::Intrinsic::ID id = call->getIntrinsicID();
        switch (id) {
          case llvm::Intrinsic::fabs:
            result = half_bits(b, operand(0), [&](llvm::Value* x) {
              return b.CreateAnd(x, llvm::ConstantInt::get(x->getType(), 0x7fff));
            });
            break;
          case llvm::Intrinsic::copysign: {
            llvm::Value* sign =
                b.CreateBitCast(operand(1), with_element(operand(1)->getType(), b.getInt16Ty()));
            result = half_bits(b, operand(0), [&](llvm::Value* x) {
              return b.CreateOr(b.CreateAnd(x, llvm::ConstantInt::get(x->getType(), 0x7fff)),
                                b.CreateAnd(sign, llvm::ConstantInt::get(x->getType(), 0x8000)));
            });
            break;
          }
          case llvm::Intrinsic::fma: {
            llvm::Type* i16 = b.getInt16Ty();
            llvm::Type* bits_type = with_element(call->getType(), i16);
            llvm::Value* x = b.CreateBitCast(operand(0), bits_type);
            llvm::Value* y = b.CreateBitCast(operand(1), bits_type);
            llvm::Value* z = b.CreateBitCast(operand(2), bits_type);
            llvm::Value* r = llvm::PoisonValue::get(bits_type);
            if (auto* v = llvm::dyn_cast<llvm::FixedVectorType>(bits_type)) {
              for (unsigned i = 0; i < v->getNumElements(); ++i)
                r = b.CreateInsertElement(
                    r,
                    call_routine(b, module, "__vt_fma_f16", i16,
                                 {b.CreateExtractElement(x, i), b.CreateExtractElement(y, i),
                                  b.CreateExtractElement(z, i)}),
                    i);
            } else {
              r = call_routine(b, module, "__vt_fma_f16", i16, {x, y, z});
            }
            result = b.CreateBitCast(r, call->getType());
            break;
          }
          case llvm::Intrinsic::fmuladd:  // a multiply and an add, each on the device's fp16
            result = b.CreateFAdd(b.CreateFMul(operand(0), operand(1)), operand(2));
            break;
          case llvm::Intrinsic::sqrt: result = sqrt_on_device(); break;
          default: {
            // The rest are the float intrinsic of the same family on promoted operands
            // (sqrt, floor, ceil, trunc, rint, round, minnum, maxnum, ...: correctly
            // rounded or exact); llvm.powi's exponent stays an integer.
            std::vector<llvm::Value*> args;
            for (unsigned n = 0; n < call->arg_size(); ++n)
              args.push_back(is_half(operand(n)->getType()) ? promote(n) : operand(n));
            llvm::Type* ft = with_element(call->getType(), f32);
            std::vector<llvm::Type*> overload{ft};
            if (id == llvm::Intrinsic::powi) overload.push_back(args[1]->getType());
            llvm::Function* decl = llvm::Intrinsic::getDeclaration(&module, id, overload);
            llvm::Value* r = b.CreateCall(decl, args);
            result = is_half(call->getType()) ? float_to_half(b, module, r) : r;
          }
        }
      }
    }
    result->takeName(inst);
    inst->replaceAllUsesWith(result);
    inst->eraseFromParent();
  }
  return !work.empty();
}

// Collects LLVM's own diagnostics (linker, bitcode reader) as text.
void llvm_diagnostic(const llvm::DiagnosticInfo& info, void* context) {
  // Optimization remarks (why a loop was not vectorized) are not for the user here.
  if (info.getSeverity() == llvm::DS_Remark) return;
  auto& text = *static_cast<std::string*>(context);
  llvm::raw_string_ostream out(text);
  llvm::DiagnosticPrinterRawOStream printer(out);
  out << llvm::LLVMContext::getDiagnosticMessagePrefix(info.getSeverity()) << ": ";
  info.print(printer);
  out << "\n";
}

// Sends LLVM's diagnostics (the linker's errors, warnings of optimization passes) to
// `text` instead of stderr while it lives.
class CollectLlvmDiagnostics {
 public:
  CollectLlvmDiagnostics(llvm::LLVMContext& context, std::string& text)
      : context_(context),
        old_handler_(context.getDiagnosticHandlerCallBack()),
        old_context_(context.getDiagnosticContext()) {
    context.setDiagnosticHandlerCallBack(llvm_diagnostic, &text);
  }
  ~CollectLlvmDiagnostics() { context_.setDiagnosticHandlerCallBack(old_handler_, old_context_); }
  CollectLlvmDiagnostics(const CollectLlvmDiagnostics&) = delete;
  CollectLlvmDiagnostics& operator=(const CollectLlvmDiagnostics&) = delete;

 private:
  llvm::LLVMContext& context_;
  llvm::DiagnosticHandler::DiagnosticHandlerTy old_handler_;
  void* old_context_;
};

// Links the definitions the module needs from the embedded builtin library; the library
// is read lazily, so only those functions are materialized.
bool link_builtins(llvm::Module& module, std::string& diagnostics) {
  llvm::LLVMContext& context = module.getContext();
  auto buffer =
      llvm::MemoryBuffer::getMemBuffer(embedded::builtin_library(), "ventus-builtins.bc", false);
  llvm::Expected<std::unique_ptr<llvm::Module>> library =
      llvm::getOwningLazyBitcodeModule(std::move(buffer), context);
  if (!library) {
    diagnostics += "error: the embedded builtin library: " + toString(library.takeError()) + "\n";
    return false;
  }
  (*library)->setDataLayout(kDataLayout);
  (*library)->setTargetTriple(kTriple);
  // The library's version metadata describes its own build (OpenCL C 3.0), not the
  // program's.
  for (const char* name : {"opencl.ocl.version", "opencl.spir.version", "llvm.ident"})
    if (llvm::NamedMDNode* node = (*library)->getNamedMetadata(name))
      (*library)->eraseNamedMetadata(node);
  const size_t before = diagnostics.size();
  const bool failed =
      llvm::Linker::linkModules(module, std::move(*library), llvm::Linker::Flags::LinkOnlyNeeded);
  if (failed && diagnostics.size() == before)
    diagnostics += "error: linking the builtin library failed\n";
  return !failed;
}

// Only kernels are entry points: everything else becomes internal, so that the optimizer
// can inline and drop it, and the back end emits only what kernels reach.
void internalize(llvm::Module& module) {
  for (llvm::Function& f : module)
    if (!f.isDeclaration() && f.getCallingConv() != llvm::CallingConv::SPIR_KERNEL)
      f.setLinkage(llvm::GlobalValue::InternalLinkage);
  for (llvm::GlobalVariable& g : module.globals())
    if (!g.isDeclaration() && !g.getName().startswith("llvm."))
      g.setLinkage(llvm::GlobalValue::InternalLinkage);
}

// Loads from the kernel metadata buffer (at __vt_csr(CSR_KNL), workitem.cl) see the same
// words for the whole launch: !invariant.load lets LLVM hoist and merge them across
// stores to global memory (a grid-stride loop's get_global_size, for one).
void mark_metadata_loads_invariant(llvm::Module& module) {
  llvm::Function* csr = module.getFunction("__vt_csr");
  if (!csr) return;
  llvm::MDNode* empty = llvm::MDNode::get(module.getContext(), {});
  std::vector<llvm::Value*> work;
  for (llvm::User* user : csr->users())
    if (auto* call = llvm::dyn_cast<llvm::CallInst>(user))
      if (call->getCalledFunction() == csr && call->arg_size() == 1)
        if (auto* number = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(0)))
          if (number->getZExtValue() == abi::csr::KNL) work.push_back(call);
  while (!work.empty()) {
    llvm::Value* v = work.back();
    work.pop_back();
    for (llvm::User* user : v->users()) {
      if (auto* load = llvm::dyn_cast<llvm::LoadInst>(user)) {
        if (load->getPointerOperand() == v && !load->isVolatile() && !load->isAtomic())
          load->setMetadata(llvm::LLVMContext::MD_invariant_load, empty);
      } else if (llvm::isa<llvm::IntToPtrInst, llvm::GetElementPtrInst, llvm::BitCastInst,
                           llvm::AddrSpaceCastInst>(user)) {
        work.push_back(user);
      }
    }
  }
}

void optimize(llvm::Module& module, int opt_level) {
  // Declared in this order so that they are destroyed in the right order (LLVM's
  // PassBuilder documentation).
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  // No loop or SLP vectorization: the device runs work-items on vector lanes, and LLVM
  // vector types only become groups of registers; unrolling remains.
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = false;
  tuning.SLPVectorization = false;
  llvm::PassBuilder builder(nullptr, tuning);
  // The device has no C library: no call is a known library function, so LLVM neither
  // rewrites calls (printf -> puts) nor turns loops into memset/memcpy calls.
  llvm::TargetLibraryInfoImpl library_info{llvm::Triple(module.getTargetTriple())};
  library_info.disableAllFunctions();
  fam.registerPass([&] { return llvm::TargetLibraryAnalysis(library_info); });
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager passes;
  if (opt_level == 0) {
    // -O0: the library's always_inline functions go into their callers (their
    // intrinsics need constant operands) and unused functions go away; nothing else.
    passes.addPass(llvm::AlwaysInlinerPass(/*InsertLifetimeIntrinsics=*/false));
    passes.addPass(llvm::GlobalDCEPass());
  } else {
    const llvm::OptimizationLevel level = opt_level == 1   ? llvm::OptimizationLevel::O1
                                          : opt_level == 2 ? llvm::OptimizationLevel::O2
                                                           : llvm::OptimizationLevel::O3;
    passes = builder.buildPerModuleDefaultPipeline(level);
  }
  passes.run(module, mam);
}

// "file:line:column: " of an instruction, from the line tables, or "file: ".
// The file is the line table's (as in the back end's messages): after linking, the unit's
// own, not the program's first.
std::string location_of(const llvm::Instruction& instruction, const std::string& file_name) {
  if (const llvm::DebugLoc& loc = instruction.getDebugLoc(); loc && loc.getLine() != 0) {
    const auto* scope = llvm::dyn_cast_or_null<llvm::DIScope>(loc.getScope());
    const std::string file =
        scope && !scope->getFilename().empty() ? scope->getFilename().str() : file_name;
    return fmt::format("{}:{}:{}: ", file, loc.getLine(), loc.getCol());
  }
  return file_name + ": ";
}

// Functions the back end provides itself: its intrinsics, and printf (variadic, so not
// definable in OpenCL C; it writes to the driver's print buffer).
bool back_end_function(llvm::StringRef name) {
  return name.startswith("__vt_") || name == "printf";
}

// Calls to functions that neither the program nor the library nor the back end defines
// would fail in the back end; say it here, where the call's source line is known.
// `linked`: the module was linked from several units, which the message names too.
bool check_undefined_functions(const llvm::Module& module, const std::string& file_name,
                               bool linked, std::string& diagnostics) {
  bool ok = true;
  for (const llvm::Function& f : module) {
    if (!f.isDeclaration() || f.isIntrinsic() || back_end_function(f.getName()) || f.use_empty())
      continue;
    const llvm::Instruction* first_call = nullptr;
    for (const llvm::User* user : f.users())
      if (const auto* call = llvm::dyn_cast<llvm::CallBase>(user)) {
        first_call = call;
        break;
      }
    const std::string name = f.getName().str();
    const std::string readable = llvm::demangle(name);
    diagnostics += fmt::format("{}error: call to '{}'{}, which {} define{}\n",
                               first_call ? location_of(*first_call, file_name) : file_name + ": ",
                               readable, readable == name ? "" : " (" + name + ")",
                               linked ? "neither the linked objects nor the Ventus builtin library"
                                      : "the Ventus builtin library does not",
                               linked ? "s" : "");
    ok = false;
  }
  return ok;
}

// LLVM's verifier, reporting instead of aborting: "file:line:column: error: internal
// compiler error: WHAT:" and the verifier's text. The location is that of the first
// instruction the verifier prints (it names each broken instruction after its message).
bool verify(const llvm::Module& module, const std::string& file_name, const char* what,
            std::string& diagnostics) {
  std::string broken;
  llvm::raw_string_ostream out(broken);
  if (!llvm::verifyModule(module, &out)) return true;
  const llvm::Instruction* culprit = nullptr;
  for (const llvm::Function& f : module)
    for (const llvm::BasicBlock& block : f)
      for (const llvm::Instruction& i : block) {
        if (culprit) break;
        std::string text;
        llvm::raw_string_ostream line(text);
        i.print(line);
        if (broken.find(text + "\n") != std::string::npos) culprit = &i;
      }
  diagnostics +=
      fmt::format("{}error: internal compiler error: {}:\n{}",
                  culprit ? location_of(*culprit, file_name) : file_name + ": ", what, broken);
  return false;
}

// "file:line: " of a definition (its debug-info subprogram), or "unit: ".
std::string definition_location(const llvm::GlobalValue& value) {
  if (const auto* f = llvm::dyn_cast<llvm::Function>(&value))
    if (const llvm::DISubprogram* sp = f->getSubprogram(); sp && sp->getLine() != 0)
      return fmt::format("{}:{}: ", sp->getFilename().str(), sp->getLine());
  return value.getParent()->getSourceFileName() + ": ";
}

std::string describe(const llvm::GlobalValue& value) {
  const auto* f = llvm::dyn_cast<llvm::Function>(&value);
  const char* kind = !f                                                      ? "variable"
                     : f->getCallingConv() == llvm::CallingConv::SPIR_KERNEL ? "kernel"
                                                                             : "function";
  const std::string name = value.getName().str(), readable = llvm::demangle(name);
  return fmt::format("{} '{}'{}", kind, readable, readable == name ? "" : " (" + name + ")");
}

// What llvm::Linker would reject or silently get wrong, with the units' file:line: a
// name with a strong definition in two units, and a function called in one unit with
// another type than its definition's (OpenCL C does not mangle the program's own
// functions, so the types are not part of the name).
bool check_definitions(const std::vector<std::unique_ptr<llvm::Module>>& units,
                       std::string& diagnostics) {
  std::map<std::string, const llvm::GlobalValue*> defined;
  bool ok = true;
  for (const std::unique_ptr<llvm::Module>& unit : units)
    for (const llvm::GlobalValue& value : unit->global_values()) {
      if (value.hasLocalLinkage() || !value.isStrongDefinitionForLinker()) continue;
      auto [it, inserted] = defined.emplace(value.getName().str(), &value);
      if (inserted) continue;
      diagnostics += fmt::format("{}error: duplicate definition of {}\n{}note: the first is here\n",
                                 definition_location(value), describe(value),
                                 definition_location(*it->second));
      ok = false;
    }
  for (const std::unique_ptr<llvm::Module>& unit : units)
    for (const llvm::Function& f : *unit) {
      if (!f.isDeclaration() || f.use_empty()) continue;
      auto it = defined.find(f.getName().str());
      if (it == defined.end()) continue;
      const auto* definition = llvm::dyn_cast<llvm::Function>(it->second);
      if (definition && definition->getFunctionType() == f.getFunctionType()) continue;
      std::string where = unit->getSourceFileName() + ": ";
      for (const llvm::User* user : f.users())
        if (const auto* call = llvm::dyn_cast<llvm::Instruction>(user)) {
          where = location_of(*call, unit->getSourceFileName());
          break;
        }
      diagnostics += fmt::format(
          "{}error: {} is used with other parameter or result types than its definition\n"
          "{}note: the definition is here\n",
          where, describe(f), definition_location(*it->second));
      ok = false;
    }
  return ok;
}

// Linking appends the units' named metadata: one copy of each identical entry (the
// OpenCL version of every unit, ...) is enough.
void drop_duplicate_named_metadata(llvm::Module& module) {
  for (llvm::NamedMDNode& node : module.named_metadata()) {
    if (node.getName() == "llvm.module.flags") continue;  // merged by the linker
    std::vector<llvm::MDNode*> unique;
    for (llvm::MDNode* operand : node.operands())
      if (std::find(unique.begin(), unique.end(), operand) == unique.end())
        unique.push_back(operand);
    if (unique.size() == node.getNumOperands()) continue;
    node.clearOperands();
    for (llvm::MDNode* operand : unique) node.addOperand(operand);
  }
}

// The object format (docs/compiler.md): LLVM's bitcode wrapper header (what Apple's
// tools write; every LLVM reader skips it), the bitcode, and a trailer with a checksum.
// LLVM 15's bitcode reader crashes on some corrupted bitcode (found by the mutation
// test), so the bytes are checked before it reads them.
//   0  u32 0x0B17C0DE  u32 0 (version)  u32 20 (bitcode offset)  u32 N (bitcode size)
//  16  u32 0 (CPU type, unused)
//  20  N bytes of bitcode ('BC' 0xC0DE ..., N a multiple of 4)
//  20+N  "VENTUSOB"  u64 xxHash64 of bytes 0 .. 20+N   (all little-endian)
constexpr uint32_t kWrapperMagic = 0x0B17C0DE;
constexpr size_t kWrapperHeaderSize = 20;
constexpr char kTrailerMagic[] = "VENTUSOB";
constexpr size_t kTrailerSize = 16;

uint32_t read_u32(std::span<const uint8_t> bytes, size_t at) {
  return uint32_t{bytes[at]} | uint32_t{bytes[at + 1]} << 8 | uint32_t{bytes[at + 2]} << 16 |
         uint32_t{bytes[at + 3]} << 24;
}

uint64_t read_u64(std::span<const uint8_t> bytes, size_t at) {
  return read_u32(bytes, at) | uint64_t{read_u32(bytes, at + 4)} << 32;
}

void append_u32(std::vector<uint8_t>& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

// The bitcode inside an object, or nullopt with the reason in `why`.
std::optional<std::span<const uint8_t>> object_bitcode(std::span<const uint8_t> bytes,
                                                       std::string* why) {
  auto fail = [&](const char* reason) -> std::optional<std::span<const uint8_t>> {
    if (why) *why = reason;
    return std::nullopt;
  };
  auto starts_with = [&](std::string_view magic) {
    return bytes.size() >= magic.size() &&
           std::equal(magic.begin(), magic.end(), bytes.begin(),
                      [](char c, uint8_t b) { return static_cast<uint8_t>(c) == b; });
  };
  if (starts_with("\177ELF")) return fail("not a Ventus object but an executable (ELF)");
  if (starts_with("BC\xC0\xDE"))
    return fail("LLVM bitcode, not a Ventus object (no object header; see ventus cc -c)");
  if (bytes.size() < kWrapperHeaderSize + kTrailerSize || read_u32(bytes, 0) != kWrapperMagic)
    return fail("not a Ventus object (no object header)");
  const uint64_t offset = read_u32(bytes, 8), size = read_u32(bytes, 12);
  if (offset != kWrapperHeaderSize || offset + size + kTrailerSize != bytes.size() || size % 4 != 0)
    return fail("corrupt object (its sizes do not match its length)");
  const size_t trailer = kWrapperHeaderSize + size;
  if (!std::equal(kTrailerMagic, kTrailerMagic + 8, bytes.begin() + trailer))
    return fail("not a Ventus object (no object trailer)");
  if (read_u64(bytes, trailer + 8) != llvm::xxHash64(llvm::ArrayRef(bytes.data(), trailer)))
    return fail("corrupt object (checksum mismatch)");
  return bytes.subspan(offset, size);
}

llvm::StringRef as_string_ref(std::span<const uint8_t> bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

}  // namespace

int effective_opt_level(const Options& options, std::string* error) {
  if (std::find(options.extra_args.begin(), options.extra_args.end(), "-cl-opt-disable") !=
      options.extra_args.end())
    return 0;
  if (options.opt_level < 0 || options.opt_level > 3) {
    if (error)
      *error = fmt::format("error: invalid optimization level -O{} (0 to 3)\n", options.opt_level);
    return -1;
  }
  return options.opt_level;
}

std::unique_ptr<llvm::Module> build_unit(std::string_view source, const Options& options,
                                         llvm::LLVMContext& context, std::string& diagnostics) {
  std::string message;
  const int opt_level = effective_opt_level(options, &message);
  if (opt_level < 0) {
    diagnostics += message;
    return nullptr;
  }
  const std::string cl_std = normalized_cl_std(options.cl_std);
  if (cl_std.empty()) {
    diagnostics += fmt::format(
        "error: invalid value '{}' in '-cl-std={}' (CL1.0, CL1.1, CL1.2, CL2.0 or CL3.0)\n",
        options.cl_std, options.cl_std);
    return nullptr;
  }
  std::unique_ptr<llvm::Module> module =
      parse(source, options, cl_std, opt_level, context, diagnostics);
  if (!module) return nullptr;
  if (!verify(*module, main_file_name(options),
              "clang 15 generated invalid LLVM IR for this construct", diagnostics))
    return nullptr;
  module->setDataLayout(kDataLayout);
  module->setTargetTriple(kTriple);
  lower_library_operations(*module, Lowering::int64);
  return module;
}

std::unique_ptr<llvm::Module> link_units(std::vector<std::unique_ptr<llvm::Module>> units,
                                         const Options& options, std::string& diagnostics) {
  std::string message;
  const int opt_level = effective_opt_level(options, &message);
  if (opt_level < 0) {
    diagnostics += message;
    return nullptr;
  }
  if (units.empty() || std::find(units.begin(), units.end(), nullptr) != units.end()) {
    diagnostics += "error: no objects to link\n";
    return nullptr;
  }
  for (const std::unique_ptr<llvm::Module>& unit : units)
    if (&unit->getContext() != &units.front()->getContext()) {
      diagnostics += "error: internal compiler error: units in different LLVM contexts\n";
      return nullptr;
    }
  const bool linked = units.size() > 1;
  if (linked && !check_definitions(units, diagnostics)) return nullptr;
  std::unique_ptr<llvm::Module> module = std::move(units.front());
  llvm::LLVMContext& context = module->getContext();
  {
    CollectLlvmDiagnostics collect(context, diagnostics);
    if (linked) {
      llvm::Linker linker(*module);
      for (size_t i = 1; i < units.size(); ++i) {
        const size_t before = diagnostics.size();
        if (linker.linkInModule(std::move(units[i]))) {
          if (diagnostics.size() == before) diagnostics += "error: linking the objects failed\n";
          return nullptr;
        }
      }
      drop_duplicate_named_metadata(*module);
    }
    // Done per unit already (build_unit); again for objects from elsewhere. A no-op on
    // lowered code.
    lower_library_operations(*module, Lowering::int64);
    if (!link_builtins(*module, diagnostics)) return nullptr;
    // The library's own code may convert between long and float (convert.cl): lowered
    // now, its calls need the int64.cl functions, which a second link pulls in (it adds
    // only what is still undefined). Those functions contain neither.
    if (lower_library_operations(*module, Lowering::int64) && !link_builtins(*module, diagnostics))
      return nullptr;
    internalize(*module);
    mark_metadata_loads_invariant(*module);
    optimize(*module, opt_level);
    // The conversions of double that remain: their soft-float routines (lib/fp64.cl, all
    // always_inline) are linked and inlined, and the result optimized once more. The
    // operations of half (lower_fp16_operations) go first: their conversions to and
    // from double are lowered in the same round.
    for (int round = 0; round < 6; ++round) {
      const bool half = lower_fp16_operations(*module);
      if (!lower_library_operations(*module, Lowering::fp64) && !half) break;
      if (!link_builtins(*module, diagnostics)) return nullptr;
      internalize(*module);
      optimize(*module, opt_level);
    }
  }
  const std::string file_name = module->getSourceFileName();
  if (!check_undefined_functions(*module, file_name, linked, diagnostics)) return nullptr;
  if (!verify(*module, file_name, "invalid LLVM IR after optimization", diagnostics))
    return nullptr;
  return module;
}

std::unique_ptr<llvm::Module> build_module(std::string_view source, const Options& options,
                                           llvm::LLVMContext& context, std::string& diagnostics) {
  std::unique_ptr<llvm::Module> unit = build_unit(source, options, context, diagnostics);
  if (!unit) return nullptr;
  std::vector<std::unique_ptr<llvm::Module>> units;
  units.push_back(std::move(unit));
  return link_units(std::move(units), options, diagnostics);
}

std::vector<uint8_t> write_object(const llvm::Module& unit) {
  llvm::SmallVector<char, 0> bitcode;
  llvm::raw_svector_ostream stream(bitcode);
  // The use-list order decides the order in which passes visit users; keeping it makes
  // optimizing the read module give the same code as optimizing the written one.
  llvm::WriteBitcodeToFile(unit, stream, /*ShouldPreserveUseListOrder=*/true);
  std::vector<uint8_t> out;
  out.reserve(kWrapperHeaderSize + bitcode.size() + kTrailerSize);
  for (uint32_t word : {kWrapperMagic, 0u, static_cast<uint32_t>(kWrapperHeaderSize),
                        static_cast<uint32_t>(bitcode.size()), 0u})
    append_u32(out, word);
  out.insert(out.end(), bitcode.begin(), bitcode.end());
  const uint64_t hash = llvm::xxHash64(llvm::ArrayRef(out.data(), out.size()));
  out.insert(out.end(), kTrailerMagic, kTrailerMagic + 8);
  append_u32(out, static_cast<uint32_t>(hash));
  append_u32(out, static_cast<uint32_t>(hash >> 32));
  return out;
}

std::unique_ptr<llvm::Module> read_object(std::span<const uint8_t> bytes, const std::string& name,
                                          llvm::LLVMContext& context, std::string& diagnostics) {
  std::string why;
  const std::optional<std::span<const uint8_t>> bitcode = object_bitcode(bytes, &why);
  if (!bitcode) {
    diagnostics += fmt::format("{}: error: {}\n", name, why);
    return nullptr;
  }
  CollectLlvmDiagnostics collect(context, diagnostics);
  llvm::Expected<std::unique_ptr<llvm::Module>> module =
      llvm::parseBitcodeFile(llvm::MemoryBufferRef(as_string_ref(*bitcode), name), context);
  if (!module) {
    diagnostics +=
        fmt::format("{}: error: unreadable object: {}\n", name, llvm::toString(module.takeError()));
    return nullptr;
  }
  if ((*module)->getTargetTriple() != kTriple || (*module)->getDataLayoutStr() != kDataLayout) {
    diagnostics += fmt::format("{}: error: not a Ventus object (target '{}', data layout '{}')\n",
                               name, (*module)->getTargetTriple(), (*module)->getDataLayoutStr());
    return nullptr;
  }
  std::string broken;
  llvm::raw_string_ostream out(broken);
  if (llvm::verifyModule(**module, &out)) {
    diagnostics += fmt::format("{}: error: invalid object:\n{}", name, broken);
    return nullptr;
  }
  return std::move(*module);
}

bool is_object(std::span<const uint8_t> bytes) {
  const std::optional<std::span<const uint8_t>> bitcode = object_bitcode(bytes, nullptr);
  if (!bitcode) return false;
  llvm::Expected<std::string> triple =
      llvm::getBitcodeTargetTriple(llvm::MemoryBufferRef(as_string_ref(*bitcode), "object"));
  if (!triple) {
    llvm::consumeError(triple.takeError());
    return false;
  }
  return *triple == kTriple;
}

std::string to_text(const llvm::Module& module) {
  std::string text;
  llvm::raw_string_ostream out(text);
  module.print(out, nullptr);
  out.flush();
  return text;
}

}  // namespace ventus::cc::frontend
