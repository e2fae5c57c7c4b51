#include "translator.h"

#include <fmt/format.h>
#include <llvm/ExecutionEngine/JITEventListener.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/RTDyldObjectLinkingLayer.h>
#include <llvm/ExecutionEngine/SectionMemoryManager.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Transforms/InstCombine/InstCombine.h>
#include <llvm/Transforms/Scalar/EarlyCSE.h>
#include <llvm/Transforms/Scalar/LICM.h>
#include <llvm/Transforms/Scalar/LoopPassManager.h>
#include <llvm/Transforms/Scalar/SROA.h>
#include <llvm/Transforms/Scalar/SimplifyCFG.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstddef>
#include <cstdlib>
#include <ctime>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "emit_fp32.h"
#include "emit_memory.h"
#include "emit_vint.h"
#include "semantics.h"
#include "vtype.h"
#include "warp_ir.h"

namespace ventus::jit {

using isa::Op;
using sim::CachedInsn;

namespace {

constexpr size_t kMaxBlockInstructions = 64;
// Blocks waiting for a compile thread: a hot block beyond these is asked for again later.
constexpr size_t kMaxQueued = 64;

std::atomic<uint64_t> translated_in_process{0}, tiered_up_in_process{0};

// What the thunk tells the block.
enum : uint32_t { kNext = 0, kFaulted = 1, kLeft = 2 };

// Runs one instruction's semantics for translated code, exactly as the interpreter does:
// ctx.pc and next_pc set first. No exception leaves it (translated frames have no unwind
// information): it is kept in *error for Sm::run_block. kLeft: the instruction changed the
// flow, next_pc or the SIMT mask, so the block must stop after it.
uint32_t call_semantics(sim::Exec* ctx, const CachedInsn* entry, uint32_t pc,
                        std::exception_ptr* error) noexcept {
  ctx->pc = pc;
  const uint32_t next = pc + entry->length;
  ctx->next_pc = next;
  const uint32_t mask = ctx->warp.mask;
  try {
    entry->fn(*ctx, entry->insn);
  } catch (...) {
    *error = std::current_exception();
    return kFaulted;
  }
  return ctx->flow != sim::Flow::Next || ctx->next_pc != next || ctx->warp.mask != mask ? kLeft
                                                                                        : kNext;
}

// What split_warp returns when the SIMT stack could not grow (no pc is this value).
constexpr uint64_t kSplitFaulted = uint64_t{1} << 32;

// A vector branch at pc whose taken lanes are some but not all of the active ones, in
// translated code where the SIMT stack has no room for its push (emit_split pushes inline
// otherwise): sim::split_warp, as the semantics do it. Returns the pc the warp goes on at (the
// mask is that path's), or kSplitFaulted with the exception (the overflow fault) in *error.
uint64_t split_warp(sim::Exec* ctx, uint32_t taken, uint32_t pc, uint32_t target,
                    std::exception_ptr* error) noexcept {
  ctx->pc = pc;
  ctx->next_pc = pc + 4;
  try {
    sim::split_warp(*ctx, taken, target);
  } catch (...) {
    *error = std::current_exception();
    return kSplitFaulted;
  }
  return ctx->next_pc;
}

// Byte offsets in sim::Exec: next_pc, where a block that leaves says where the warp goes on,
// and divergences, which an inline split counts.
struct ExecLayout {
  uint64_t next_pc, divergences;
};
const ExecLayout& exec_layout() {
  static const ExecLayout layout = [] {
    const auto warp = std::make_unique<sim::Warp>();
    const sim::Exec probe{*warp};
    const auto at = [&](const void* field) {
      return static_cast<uint64_t>(static_cast<const char*>(field) -
                                   reinterpret_cast<const char*>(&probe));
    };
    return ExecLayout{at(&probe.next_pc), at(&probe.divergences)};
  }();
  return layout;
}

bool is_plain_semantics(const CachedInsn& entry) {
  return entry.insn.op != Op::Count &&
         entry.fn == sim::kSemantics[static_cast<size_t>(entry.insn.op)];
}

[[noreturn]] void llvm_failed(const char* what, llvm::Error error) {
  throw std::runtime_error(std::string("JIT: ") + what + ": " + llvm::toString(std::move(error)));
}

}  // namespace

// A block ends after the first instruction of these classes: their semantics may set
// ctx.flow, next_pc or the SIMT mask. The call thunk checks every called instruction anyway
// (a CSR write that prints leaves the block there), so this decides only where blocks end,
// never what they do. An inlined jal does not end it: the block goes on at the jump's target.
bool ends_block(const CachedInsn& entry) {
  // Not decoded (an illegal or truncated word, a prefix with no instruction after it): it has
  // no row, and it faults when run.
  if (entry.insn.op == Op::Count) return true;
  if (entry.insn.op == Op::JAL) return !is_inlined(entry);
  if (is_guarded(entry)) return false;
  switch (isa::info(entry.insn.op).cls) {
    case isa::InsnClass::Jump:
    case isa::InsnClass::Branch:
    case isa::InsnClass::VBranch:
    case isa::InsnClass::Join:
    case isa::InsnClass::Control:
    case isa::InsnClass::Unsupported:
    case isa::InsnClass::Prefix: return true;
    default: return entry.insn.op == Op::Count;  // an entry that only faults
  }
}

bool jumps_within_block(const CachedInsn& entry) {
  return entry.insn.op == Op::JAL && !entry.prefixed && entry.insn.imm > 0 && is_inlined(entry);
}

bool is_guarded(const CachedInsn& entry) {
  if (!is_plain_semantics(entry)) return false;
  switch (entry.insn.op) {
    case Op::VBEQ:
    case Op::VBNE:
    case Op::VBLT:
    case Op::VBGE:
    case Op::VBLTU:
    case Op::VBGEU:
      return !entry.prefixed && entry.insn.rs1 < sim::kNumVRegs && entry.insn.rs2 < sim::kNumVRegs;
    case Op::JOIN: return !entry.prefixed;
    case Op::BEQ:
    case Op::BNE:
    case Op::BLT:
    case Op::BGE:
    case Op::BLTU:
    case Op::BGEU: return true;
    default: return false;
  }
}

uint64_t blocks_translated_in_process() {
  return translated_in_process.load(std::memory_order_relaxed);
}

uint64_t blocks_tiered_up_in_process() {
  return tiered_up_in_process.load(std::memory_order_relaxed);
}

const WarpLayout& warp_layout() {
  static const WarpLayout layout = [] {
    const auto probe = std::make_unique<sim::Warp>();
    const auto at = [&](const void* field) { return offset_in(*probe, field); };
    return WarpLayout{at(&probe->x),
                      at(&probe->v),
                      at(&probe->lanes),
                      at(&probe->mask),
                      at(&probe->lane_mask),
                      at(&probe->vcfg.vtype),
                      at(&probe->vcfg.vl),
                      at(&probe->vcfg.sew),
                      at(&probe->vcfg.lmul),
                      at(&probe->rpc),
                      at(&probe->csr_pds),
                      at(&probe->frm),
                      at(&probe->fflags),
                      at(&probe->stack_base),
                      at(&probe->stack_end),
                      at(&probe->simt_stack.depth),
                      at(&probe->simt_stack.entries[0])};
  }();
  return layout;
}

// csrrs / csrrc with rs1 = x0 and csrrsi / csrrci with uimm = 0: they read the CSR into rd
// and write nothing (semantics/csr.cpp).
bool is_csr_read(const CachedInsn& entry) {
  if (!is_plain_semantics(entry) || entry.prefixed) return false;
  switch (entry.insn.op) {
    case Op::CSRRS:
    case Op::CSRRC:
    case Op::CSRRSI:
    case Op::CSRRCI: return entry.insn.rs1 == 0;
    default: return false;
  }
}

bool is_csr_write(const CachedInsn& entry) {
  if (!is_plain_semantics(entry) || entry.prefixed || is_csr_read(entry)) return false;
  switch (entry.insn.op) {
    case Op::CSRRW:
    case Op::CSRRS:
    case Op::CSRRC:
    case Op::CSRRWI:
    case Op::CSRRSI:
    case Op::CSRRCI: return true;
    default: return false;
  }
}

namespace {

// The CSR a csr instruction names.
uint32_t csr_number(const sim::Insn& in) {
  return static_cast<uint32_t>(in.imm) & 0xfff;
}

// The byte offset in Warp of the field CSR `number` reads as it is (sim::csr_field), or
// nullopt.
std::optional<uint64_t> csr_offset(uint32_t number) {
  static const auto probe = std::make_unique<sim::Warp>();
  const uint32_t* field = sim::csr_field(*probe, number);
  if (!field) return std::nullopt;
  return offset_in(*probe, field);
}

// The byte offset in Warp of the field that a write of CSR `number` sets as it is
// (sim::csr_written_field) when the CSR also reads it as it is, or nullopt.
std::optional<uint64_t> csr_written_offset(uint32_t number) {
  static const auto probe = std::make_unique<sim::Warp>();
  const uint32_t* field = sim::csr_written_field(*probe, number);
  if (!field || sim::csr_field(*probe, number) != field) return std::nullopt;
  return offset_in(*probe, field);
}

// vsetvli and vsetivli whose vtype (an immediate) Ventus supports: the start code's in every
// warp. vsetvl's vtype is a register, and an unsupported one faults, through the call.
bool is_vector_config(const CachedInsn& entry) {
  return (entry.insn.op == Op::VSETVLI || entry.insn.op == Op::VSETIVLI) &&
         sim::is_supported_vtype(static_cast<uint32_t>(entry.insn.imm));
}

}  // namespace

bool is_inlined(const CachedInsn& entry) {
  if (!is_plain_semantics(entry)) return false;
  if (is_thread_access(entry) || is_scalar_access(entry) || is_fp32_inlined(entry) ||
      is_vint_inlined(entry))
    return true;
  if (is_csr_read(entry)) return csr_offset(csr_number(entry.insn)).has_value();
  if (is_csr_write(entry)) return csr_written_offset(csr_number(entry.insn)).has_value();
  if (is_vector_config(entry)) return true;
  switch (entry.insn.op) {
    case Op::LUI:
    case Op::AUIPC:
    case Op::JAL:
    case Op::JALR:
    case Op::SETRPC:
    case Op::ADDI:
    case Op::SLTI:
    case Op::SLTIU:
    case Op::XORI:
    case Op::ORI:
    case Op::ANDI:
    case Op::SLLI:
    case Op::SRLI:
    case Op::SRAI:
    case Op::ADD:
    case Op::SUB:
    case Op::SLL:
    case Op::SLT:
    case Op::SLTU:
    case Op::XOR:
    case Op::SRL:
    case Op::SRA:
    case Op::OR:
    case Op::AND:
    case Op::MUL: return true;
    default: return false;
  }
}

namespace {

// The module flag that names a module's Tier (TieredCompiler).
constexpr const char* kTierFlag = "ventus.tier";

Tier tier_of(const llvm::Module& module) {
  const auto* flag =
      llvm::mdconst::extract_or_null<llvm::ConstantInt>(module.getModuleFlag(kTierFlag));
  return flag && flag->getZExtValue() == static_cast<uint64_t>(Tier::Quick) ? Tier::Quick
                                                                            : Tier::Optimized;
}

// LLJIT's compiler: each module's code generation at its tier's level, -O0 (FastISel and the
// fast register allocator) or -O3.
class TieredCompiler : public llvm::orc::IRCompileLayer::IRCompiler {
 public:
  explicit TieredCompiler(llvm::orc::JITTargetMachineBuilder builder)
      : IRCompiler(llvm::orc::irManglingOptionsFromTargetOptions(builder.getOptions())) {
    quick_ = machine_at(builder, llvm::CodeGenOpt::None);
    optimized_ = machine_at(builder, llvm::CodeGenOpt::Aggressive);
  }

  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> operator()(llvm::Module& module) override {
    return llvm::orc::SimpleCompiler(tier_of(module) == Tier::Quick ? *quick_
                                                                    : *optimized_)(module);
  }

 private:
  static std::unique_ptr<llvm::TargetMachine> machine_at(llvm::orc::JITTargetMachineBuilder builder,
                                                         llvm::CodeGenOpt::Level level) {
    builder.setCodeGenOptLevel(level);
    auto machine = builder.createTargetMachine();
    if (!machine) llvm_failed("creating the host target", machine.takeError());
    return std::move(*machine);
  }

  std::unique_ptr<llvm::TargetMachine> quick_, optimized_;
};

}  // namespace

struct Translator::Engine {
  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::unique_ptr<llvm::TargetMachine> machine;  // the optimizer's view of the host CPU
  llvm::orc::ResourceTrackerSP tracker;          // owns the code of the current blocks
  uint64_t next_name = 0;

  Engine() {
    static std::once_flag targets;
    std::call_once(targets, [] {
      llvm::InitializeNativeTarget();
      llvm::InitializeNativeTargetAsmPrinter();
    });
    // The host's CPU and features (SSE, AVX2, AVX-512), detected when the simulator runs.
    auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
    if (!builder) llvm_failed("detecting the host CPU", builder.takeError());
    builder->setCodeGenOptLevel(llvm::CodeGenOpt::Aggressive);
    auto target = builder->createTargetMachine();
    if (!target) llvm_failed("creating the host target", target.takeError());
    machine = std::move(*target);
    llvm::orc::LLJITBuilder jit_builder;
    jit_builder.setJITTargetMachineBuilder(*builder).setCompileFunctionCreator(
        [](llvm::orc::JITTargetMachineBuilder host)
            -> llvm::Expected<std::unique_ptr<llvm::orc::IRCompileLayer::IRCompiler>> {
          return std::make_unique<TieredCompiler>(std::move(host));
        });
    if (profiled_by_perf()) jit_builder.setObjectLinkingLayerCreator(&linking_layer_for_perf);
    auto created = jit_builder.create();
    if (!created) llvm_failed("creating the JIT", created.takeError());
    jit = std::move(*created);
    tracker = jit->getMainJITDylib().createResourceTracker();
  }
  ~Engine() {
    if (tracker) llvm::consumeError(tracker->remove());
  }

  // VENTUS_JIT_PERF=1 names every translated block in the jitdump file that `perf inject
  // --jit` reads (docs/performance.md, "Profiling translated code"), as qemu's -perfmap does:
  // without it perf shows the blocks as anonymous addresses.
  static bool profiled_by_perf() {
    const char* setting = std::getenv("VENTUS_JIT_PERF");
    return setting != nullptr && *setting != '\0' && std::string_view(setting) != "0";
  }
  static llvm::Expected<std::unique_ptr<llvm::orc::ObjectLayer>> linking_layer_for_perf(
      llvm::orc::ExecutionSession& session, const llvm::Triple&) {
    auto layer = std::make_unique<llvm::orc::RTDyldObjectLinkingLayer>(
        session, [] { return std::make_unique<llvm::SectionMemoryManager>(); });
    if (llvm::JITEventListener* perf = llvm::JITEventListener::createPerfJITEventListener())
      layer->registerJITEventListener(*perf);
    return layer;
  }

  // The passes a block's IR needs, rather than O2's whole pipeline, whose optimizing cost
  // about 4 times as much (a third of a compile) for code that ran about as fast
  // (docs/performance.md, "The translating tier by default"): the budget
  // and round counters into registers (SROA), repeated loads of warp fields and mask
  // computations (EarlyCSE), folding and the dead ends of the entry switch (InstCombine,
  // SimplifyCFG), and for a block that loops, register rows that stay in host registers
  // across its rounds (LICM). A quick compile leaves out InstCombine: 10-20 % of its CPU, for
  // code that ran as fast within noise (docs/performance.md, "What a compile costs").
  void optimize(llvm::Module& module, Tier tier) {
    llvm::LoopAnalysisManager loops;
    llvm::FunctionAnalysisManager functions;
    llvm::CGSCCAnalysisManager sccs;
    llvm::ModuleAnalysisManager modules;
    llvm::PassBuilder passes(machine.get());
    passes.registerModuleAnalyses(modules);
    passes.registerCGSCCAnalyses(sccs);
    passes.registerFunctionAnalyses(functions);
    passes.registerLoopAnalyses(loops);
    passes.crossRegisterProxies(loops, functions, sccs, modules);
    llvm::FunctionPassManager pipeline;
    const bool fold = tier == Tier::Optimized;
    pipeline.addPass(llvm::SROAPass());
    pipeline.addPass(llvm::EarlyCSEPass(/*UseMemorySSA=*/true));
    if (fold) pipeline.addPass(llvm::InstCombinePass());
    pipeline.addPass(llvm::SimplifyCFGPass());
    pipeline.addPass(llvm::createFunctionToLoopPassAdaptor(llvm::LICMPass(llvm::LICMOptions()),
                                                           /*UseMemorySSA=*/true));
    if (fold) pipeline.addPass(llvm::InstCombinePass());
    llvm::ModulePassManager per_function;
    per_function.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(pipeline)));
    per_function.run(module, modules);
  }

  // A module for one function, `name`, compiled at `tier`.
  std::unique_ptr<llvm::Module> module_for(llvm::LLVMContext& context, const std::string& name,
                                           Tier tier) const {
    auto module = std::make_unique<llvm::Module>(name, context);
    module->setDataLayout(jit->getDataLayout());
    module->setTargetTriple(jit->getTargetTriple().str());
    module->addModuleFlag(llvm::Module::Warning, kTierFlag, static_cast<uint32_t>(tier));
    return module;
  }

  Block::Fn compile(std::unique_ptr<llvm::LLVMContext> context,
                    std::unique_ptr<llvm::Module> module, const std::string& name) {
    if (llvm::verifyModule(*module, &llvm::errs()))
      throw std::logic_error("JIT: the block's IR is invalid");
    optimize(*module, tier_of(*module));
    if (auto e = jit->addIRModule(
            tracker, llvm::orc::ThreadSafeModule(std::move(module), std::move(context))))
      llvm_failed("adding a block", std::move(e));
    auto address = jit->lookup(name);
    if (!address) llvm_failed("compiling a block", address.takeError());
    return address->toPtr<Block::Fn>();
  }

  // Compiles a small vector loop at each tier, so that LLVM constructs the static objects that
  // its compiles construct at their first use (CompileThreads): the SelectionDAG's value types,
  // and X86's memory unfolding table, which MachineLICM looks up to hoist the loop-invariant
  // constant operand out of the loop.
  void warm_up() {
    for (const Tier tier : {Tier::Quick, Tier::Optimized}) warm_up(tier);
  }
  void warm_up(Tier tier) {
    auto context = std::make_unique<llvm::LLVMContext>();
    const std::string name = "warm_up" + std::to_string(next_name++);
    std::unique_ptr<llvm::Module> module = module_for(*context, name, tier);
    llvm::IRBuilder<> b(*context);
    auto* lanes = llvm::FixedVectorType::get(b.getInt32Ty(), sim::kMaxLanes);
    auto* type = llvm::FunctionType::get(
        b.getVoidTy(), {llvm::PointerType::get(*context, 0), b.getInt64Ty()}, false);
    auto* fn = llvm::Function::Create(type, llvm::Function::ExternalLinkage, name, *module);
    auto* entry = llvm::BasicBlock::Create(*context, "entry", fn);
    auto* loop = llvm::BasicBlock::Create(*context, "loop", fn);
    auto* done = llvm::BasicBlock::Create(*context, "done", fn);
    llvm::Value* registers = fn->getArg(0);
    b.SetInsertPoint(entry);
    llvm::Value* first = b.CreateLoad(lanes, b.CreateGEP(lanes, registers, b.getInt64(1)));
    b.CreateBr(loop);
    b.SetInsertPoint(loop);
    llvm::PHINode* round = b.CreatePHI(b.getInt64Ty(), 2);
    llvm::PHINode* value = b.CreatePHI(lanes, 2);
    // Distinct lanes: a splat would be loaded once into a register before the loop.
    std::vector<uint32_t> steps(sim::kMaxLanes);
    for (uint32_t lane = 0; lane < sim::kMaxLanes; ++lane) steps[lane] = 0x9e3779b9u * lane;
    llvm::Value* next = b.CreateAdd(value, llvm::ConstantDataVector::get(*context, steps));
    llvm::Value* next_round = b.CreateAdd(round, b.getInt64(1));
    round->addIncoming(b.getInt64(0), entry);
    round->addIncoming(next_round, loop);
    value->addIncoming(first, entry);
    value->addIncoming(next, loop);
    b.CreateCondBr(b.CreateICmpULT(next_round, fn->getArg(1)), loop, done);
    b.SetInsertPoint(done);
    b.CreateStore(next, registers);
    b.CreateRetVoid();
    compile(std::move(context), std::move(module), name);
  }

  void clear() {
    if (auto e = tracker->remove()) llvm_failed("dropping blocks", std::move(e));
    tracker = jit->getMainJITDylib().createResourceTracker();
  }
};

namespace {

// Emits a block's IR: one function (ctx, warp, error, budget, rounds) -> Block::Fn's result.
class BlockEmitter {
 public:
  BlockEmitter(llvm::LLVMContext& context, llvm::Module& module, const std::string& name, Tier tier)
      : c_(context), b_(context), layout_(warp_layout()), tier_(tier) {
    i32_ = b_.getInt32Ty();
    ptr_ = llvm::PointerType::get(c_, 0);
    lanes_ = llvm::FixedVectorType::get(i32_, sim::kMaxLanes);
    i64_ = b_.getInt64Ty();
    auto* type = llvm::FunctionType::get(i32_, {ptr_, ptr_, ptr_, i64_, ptr_, i32_}, false);
    fn_ = llvm::Function::Create(type, llvm::Function::ExternalLinkage, name, module);
    fn_->addFnAttr(llvm::Attribute::NoUnwind);
    ctx_ = fn_->getArg(0);
    warp_ = fn_->getArg(1);
    ir_.emplace(b_, warp_, shadows());
    error_ = fn_->getArg(2);
    tally_out_ = fn_->getArg(4);
    fn_->addParamAttr(4, llvm::Attribute::NoAlias);
    b_.SetInsertPoint(llvm::BasicBlock::Create(c_, "entry", fn_));
    // Promoted to registers by the optimizer.
    budget_ = b_.CreateAlloca(i64_);
    b_.CreateStore(fn_->getArg(3), budget_);
    for (llvm::AllocaInst*& field : tally_) {
      field = b_.CreateAlloca(i64_);
      b_.CreateStore(b_.getInt64(0), field);
    }
    lane_addresses_ = b_.CreateAlloca(lanes_);
    lane_addresses_->setAlignment(llvm::Align(64));
    lane_pointers_ = b_.CreateAlloca(llvm::FixedVectorType::get(ptr_, sim::kMaxLanes));
    lane_pointers_->setAlignment(llvm::Align(64));
    exit_ = llvm::BasicBlock::Create(c_, "exit", fn_);
    result_ = llvm::PHINode::Create(i32_, 0, "result", exit_);
  }

  void emit(const Block& block) {
    mxcsr_ = std::make_unique<MxcsrRun>(b_, warp_, block.insns);
    const std::vector<bool> vtype_checked = vtype_checked_entries(block);
    bool vtype_relied_on = false;
    llvm::BasicBlock* entry_block = b_.GetInsertBlock();
    llvm::BranchInst* to_dispatch = b_.CreateBr(llvm::BasicBlock::Create(c_, "dispatch", fn_));
    b_.SetInsertPoint(to_dispatch->getSuccessor(0));
    // Where each entry starts: the function starts at entry `first` (its last argument).
    std::vector<llvm::BasicBlock*>& starts = starts_;
    starts.resize(block.insns.size());
    for (auto*& start : starts) start = llvm::BasicBlock::Create(c_, "start", fn_);
    auto* round = llvm::BasicBlock::Create(c_, "round", fn_);
    llvm::SwitchInst* first = b_.CreateSwitch(fn_->getArg(5), round, starts.size());
    for (size_t k = 1; k < starts.size(); ++k)
      first->addCase(b_.getInt32(static_cast<uint32_t>(k)), starts[k]);
    b_.SetInsertPoint(round);
    for (size_t k = 0; k < block.insns.size(); ++k) {
      b_.CreateBr(starts[k]);
      b_.SetInsertPoint(starts[k]);
      // The first entry of the first round fits (the caller checked).
      if (k > 0 || block.loops) stop_unless_fits(block, k);
      const CachedInsn& entry = block.insns[k];
      if (block.loops && k + 1 == block.insns.size())
        emit_loop_back(block, round);
      else if (is_guarded(entry) && isa::info(entry.insn.op).cls == isa::InsnClass::Branch)
        emit_branch(block, k);
      else if (entry.insn.op == Op::JOIN && is_guarded(entry))
        emit_join(block, k);
      else if (is_guarded(entry))
        emit_vbranch(block, k);
      else if (!block.called[k] && is_thread_access(entry))
        emit_thread_access(values(), entry.insn, [&] { emit_call(entry, block.pcs[k], k); });
      else if (!block.called[k] && is_scalar_access(entry))
        emit_scalar_access(values(), entry.insn, [&] { emit_call(entry, block.pcs[k], k); });
      else if (!block.called[k] && is_csr_read(entry))
        emit_csr_read(entry.insn);
      else if (!block.called[k] && is_csr_write(entry))
        emit_csr_write(entry.insn);
      else if (!block.called[k] && is_fp32_inlined(entry))
        emit_fp32(b_, warp_, shadows(), entry.insn, *mxcsr_, vtype_checked[k],
                  [&] { emit_call(entry, block.pcs[k], k); });
      else if (!block.called[k] && is_vint_inlined(entry))
        emit_vint(b_, warp_, shadows(), entry.insn, vtype_checked[k],
                  [&] { emit_call(entry, block.pcs[k], k); });
      else if (!block.called[k] && is_vector_config(entry))
        emit_vector_config(entry.insn);
      else if (!block.called[k] && entry.insn.op == Op::JALR)
        emit_jalr(entry.insn, block.pcs[k] + 4 * entry.prefixed, k);
      else if (!block.called[k])
        emit_scalar(entry.insn, block.pcs[k] + 4 * entry.prefixed);
      else
        emit_call(entry, block.pcs[k], k);
      vtype_relied_on |= vtype_checked[k] && !block.called[k] &&
                         (is_fp32_inlined(entry) || is_vint_inlined(entry));
    }
    finish(4 * block.insns.size());
    if (vtype_relied_on) check_vtype_at_start(entry_block, to_dispatch);
    // Every way out of the block (a few per entry) goes through this one exit.
    b_.SetInsertPoint(exit_);
    mxcsr_->close(b_);
    static_assert(sizeof(Block::Tally) == kTallyFields * 8);
    for (size_t i = 0; i < kTallyFields; ++i)
      b_.CreateAlignedStore(b_.CreateLoad(i64_, tally_[i]),
                            b_.CreateConstInBoundsGEP1_64(i64_, tally_out_, i), llvm::Align(8));
    b_.CreateRet(result_);
    shadows_.fill(*fn_, warp_);
  }

 private:
  // Returns Block::Fn's result, with the tally (through exit_).
  void finish(size_t result) {
    result_->addIncoming(b_.getInt32(static_cast<uint32_t>(result)), b_.GetInsertBlock());
    b_.CreateBr(exit_);
  }

  // The inline vector rows need SEW=32 and LMUL=1. Only a vsetvl* (InsnClass::Config)
  // changes them, so one check where the block starts holds for every entry that
  // no Config entry precedes in the block (in a block that loops: none in it at all), and
  // those rows go inline without a check and without a call path after which every value
  // of the warp must be loaded again (docs/simulator.md, "Translation").
  static std::vector<bool> vtype_checked_entries(const Block& block) {
    const auto configures = [](const CachedInsn& entry) {
      return isa::info(entry.insn.op).cls == isa::InsnClass::Config;
    };
    std::vector<bool> checked(block.insns.size(), false);
    if (block.loops && std::any_of(block.insns.begin(), block.insns.end(), configures))
      return checked;
    for (size_t k = 0; k < block.insns.size() && !configures(block.insns[k]); ++k)
      checked[k] = true;
    return checked;
  }

  // Replaces the entry block's branch to the dispatch on `first` by the vtype check: a warp
  // at another SEW or LMUL does not run the block (Block::kNotRun).
  void check_vtype_at_start(llvm::BasicBlock* entry_block, llvm::BranchInst* to_dispatch) {
    llvm::BasicBlock* dispatch = to_dispatch->getSuccessor(0);
    to_dispatch->eraseFromParent();
    b_.SetInsertPoint(entry_block);
    auto* not_run = llvm::BasicBlock::Create(c_, "not_run", fn_);
    b_.CreateCondBr(ir_->is_sew32_lmul1(), dispatch, not_run);
    b_.SetInsertPoint(not_run);
    finish(Block::kNotRun);
  }

  // Leaves after entries[k], with the warp going on at `next` (Block::kLeft).
  void leave_at(llvm::Value* next, size_t k) {
    b_.CreateAlignedStore(
        next, b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), ctx_, exec_layout().next_pc),
        llvm::Align(4));
    finish(4 * (k + 1) + Block::kLeft);
  }

  // Tally::change and change_at for a mask that changed from `before` to the warp's mask after
  // entries[k].
  void count_mask_change(const Block& block, llvm::Value* before, size_t k) {
    llvm::Function* popcount =
        llvm::Intrinsic::getDeclaration(fn_->getParent(), llvm::Intrinsic::ctpop, {i32_});
    llvm::Value* after = ir_->load(layout_.mask);
    llvm::Value* change = b_.CreateSub(b_.CreateZExt(b_.CreateCall(popcount, {after}), i64_),
                                       b_.CreateZExt(b_.CreateCall(popcount, {before}), i64_));
    llvm::Value* at =
        b_.CreateAdd(b_.CreateMul(b_.CreateLoad(i64_, tally_[kRounds]),
                                  b_.getInt64(block.before(block.exits.size()).vector)),
                     b_.getInt64(block.exits[k].counts.vector));
    add_to(tally_[kChange], change);
    add_to(tally_[kChangeAt], b_.CreateMul(change, at));
  }
  void add_to(llvm::AllocaInst* counter, llvm::Value* value) {
    b_.CreateStore(b_.CreateAdd(b_.CreateLoad(i64_, counter), value), counter);
  }

  // The caller's instruction limit: the block returns before entries[k] unless it fits in
  // what is left of the budget (the interpreter would stop there too).
  void stop_unless_fits(const Block& block, size_t k) {
    auto* go_on = llvm::BasicBlock::Create(c_, "go_on", fn_);
    auto* stop = llvm::BasicBlock::Create(c_, "stop", fn_);
    llvm::Value* left = b_.CreateLoad(i64_, budget_);
    b_.CreateCondBr(b_.CreateICmpULT(left, b_.getInt64(block.exits[k].counts.warp)), stop, go_on);
    b_.SetInsertPoint(stop);
    finish(4 * k);
    b_.SetInsertPoint(go_on);
  }

  // The last entry of a block that loops: a scalar branch or a jal to the block's start.
  // Taken, it only sets next_pc (scalar.cpp, branch_if; a jal also writes rd), so the round
  // ends here, its instructions leave the budget, and the next round starts; not taken, the
  // block ends. A jal is always taken: its block leaves only through a budget stop or another
  // entry.
  void emit_loop_back(const Block& block, llvm::BasicBlock* round) {
    const sim::Insn& in = block.insns.back().insn;
    auto* again = llvm::BasicBlock::Create(c_, "again", fn_);
    auto* done = llvm::BasicBlock::Create(c_, "loop_done", fn_);
    if (in.op == Op::JAL) {
      emit_scalar(in, block.pcs.back());
      b_.CreateBr(again);
    } else if (isa::info(in.op).cls == isa::InsnClass::VBranch) {
      emit_vector_loop_back(block, again, done);
    } else {
      b_.CreateCondBr(scalar_branch_taken(in), again, done);
    }
    b_.SetInsertPoint(again);
    b_.CreateStore(b_.CreateSub(b_.CreateLoad(i64_, budget_),
                                b_.getInt64(block.before(block.exits.size()).warp)),
                   budget_);
    add_to(tally_[kRounds], b_.getInt64(1));
    b_.CreateBr(round);
    b_.SetInsertPoint(done);
  }

  // A vector branch back to the block's start (semantics/control.cpp vbranch), the last entry
  // of a loop whose lanes leave it at different rounds (bfs's edges): taken by every active
  // lane, the next round starts; by none, the block ends at pc + 4; by some, the warp splits
  // (emit_split) and the next round starts when the lanes that stay run first, under their mask.
  void emit_vector_loop_back(const Block& block, llvm::BasicBlock* again, llvm::BasicBlock* done) {
    const size_t k = block.insns.size() - 1;
    const uint32_t pc = block.pcs[k], start = block.pcs[0];
    llvm::Value* active = ir_->load(layout_.mask);
    llvm::Value* taken = taken_lanes(block.insns[k].insn, active);
    auto* some = llvm::BasicBlock::Create(c_, "some_stay", fn_);
    auto* split = llvm::BasicBlock::Create(c_, "loop_split", fn_);
    b_.CreateCondBr(b_.CreateICmpEQ(taken, b_.getInt32(0)), done, some);
    b_.SetInsertPoint(some);
    b_.CreateCondBr(b_.CreateICmpEQ(taken, active), again, split);
    b_.SetInsertPoint(split);
    llvm::Value* next = emit_split(taken, active, pc, start, k);
    if (block.join_after_loop) next = emit_join_after_loop(block, next);
    count_mask_change(block, active, k);
    auto* elsewhere = llvm::BasicBlock::Create(c_, "loop_left", fn_);
    llvm::SwitchInst* where = b_.CreateSwitch(next, elsewhere, 2);
    where->addCase(b_.getInt32(start), again);
    where->addCase(b_.getInt32(pc + 4), done);
    b_.SetInsertPoint(elsewhere);
    leave_at(next, k);
  }

  // Block::join_after_loop: after a split of the loop's vector branch that sent the warp to
  // pc + 4 (the lanes that leave run first), the join there runs inline as their next
  // instruction when the budget has room for it, by join_pops's rule (emit_join): where the SIMT
  // stack's top belongs to it, the top (the lanes that stay, pushed by the split) is popped and
  // the warp goes on at its resume pc with its mask. Counted as a repeat. Returns where the warp
  // goes on.
  llvm::Value* emit_join_after_loop(const Block& block, llvm::Value* next) {
    const size_t k = block.insns.size() - 1;
    const uint32_t join = block.pcs[k] + 4;
    auto* fits = llvm::BasicBlock::Create(c_, "loop_join", fn_);
    auto* pop = llvm::BasicBlock::Create(c_, "loop_join_pop", fn_);
    auto* joined = llvm::BasicBlock::Create(c_, "loop_join_done", fn_);
    llvm::Value* left = b_.CreateLoad(i64_, budget_);
    b_.CreateCondBr(b_.CreateAnd(b_.CreateICmpEQ(next, b_.getInt32(join)),
                                 b_.CreateICmpUGT(left, b_.getInt64(block.exits[k].counts.warp))),
                    fits, joined);
    b_.SetInsertPoint(fits);
    llvm::Value* top = branch_on_join_top(join, pop, joined);
    b_.SetInsertPoint(pop);
    llvm::Value* resumed = pop_simt_top(top);
    add_to(tally_[kRepeats], b_.getInt64(1));
    b_.CreateStore(b_.CreateSub(left, b_.getInt64(1)), budget_);
    b_.CreateBr(joined);
    b_.SetInsertPoint(joined);
    llvm::PHINode* goes_on = b_.CreatePHI(i32_, 4);
    for (llvm::BasicBlock* from : llvm::predecessors(joined))
      goes_on->addIncoming(from == pop ? resumed : next, from);
    return goes_on;
  }

  // jalr (semantics/scalar.cpp): the target from rs1 before rd is written; the block ends
  // here (ends_block) and leaves with the warp at the target, which is checked where it is
  // fetched, as after the semantics.
  void emit_jalr(const sim::Insn& in, uint32_t pc, size_t k) {
    llvm::Value* target =
        b_.CreateAnd(b_.CreateAdd(ir_->read_x(in.rs1), b_.getInt32(static_cast<uint32_t>(in.imm))),
                     b_.getInt32(~1u));
    ir_->write_x(in.rd, b_.getInt32(pc + 4));
    leave_at(target, k);
    b_.SetInsertPoint(llvm::BasicBlock::Create(c_, "after_jalr", fn_));  // not reached
  }

  llvm::Value* scalar_branch_taken(const sim::Insn& in) {
    llvm::Value* a = ir_->read_x(in.rs1);
    llvm::Value* c = ir_->read_x(in.rs2);
    switch (in.op) {
      case Op::BEQ: return b_.CreateICmpEQ(a, c);
      case Op::BNE: return b_.CreateICmpNE(a, c);
      case Op::BLT: return b_.CreateICmpSLT(a, c);
      case Op::BGE: return b_.CreateICmpSGE(a, c);
      case Op::BLTU: return b_.CreateICmpULT(a, c);
      case Op::BGEU: return b_.CreateICmpUGE(a, c);
      default: throw std::logic_error("JIT: not a scalar branch");
    }
  }

  // fflags is only up to date once an open MXCSR run has accrued its flags into it.
  void emit_csr_read(const sim::Insn& in) {
    const uint32_t number = csr_number(in);
    if (number == abi::csr::FFLAGS) mxcsr_->close(b_);
    ir_->write_x(in.rd, ir_->load(*csr_offset(number)));
  }

  // csrrw, csrrs, csrrc and their immediate forms, of a CSR that takes the value written as it
  // is (semantics/csr.cpp, csr_op): rd = the old value; the CSR = the operand, or the old value
  // with the operand's bits set or cleared. The operand is x[rs1], read first, or for the
  // immediate forms the 5-bit immediate kept in rs1.
  void emit_csr_write(const sim::Insn& in) {
    const uint64_t field = *csr_written_offset(csr_number(in));
    const bool immediate = in.op == Op::CSRRWI || in.op == Op::CSRRSI || in.op == Op::CSRRCI;
    llvm::Value* operand = immediate ? b_.getInt32(in.rs1 & 31) : ir_->read_x(in.rs1);
    llvm::Value* old = ir_->load(field);
    llvm::Value* value = operand;
    if (in.op == Op::CSRRS || in.op == Op::CSRRSI) value = b_.CreateOr(old, operand);
    if (in.op == Op::CSRRC || in.op == Op::CSRRCI) value = b_.CreateAnd(old, b_.CreateNot(operand));
    ir_->store(field, value);
    ir_->write_x(in.rd, old);
  }

  // vsetvli / vsetivli of a supported vtype (semantics/config.cpp, configure): vtype, SEW and
  // LMUL as the immediate says, vl = min(AVL, threads) where RVV 1.0's AVL rule gives an AVL
  // (vsetivli's immediate; x[rs1] for rs1 != x0; the threads for rs1 = x0, rd != x0; else vl
  // is kept), and rd = vl.
  void emit_vector_config(const sim::Insn& in) {
    const uint32_t vtype = static_cast<uint32_t>(in.imm);
    llvm::Value* threads = ir_->load(layout_.lanes);
    llvm::Value* vl = nullptr;  // kept
    if (in.op == Op::VSETIVLI || in.rs1 != 0) {
      llvm::Value* avl = in.op == Op::VSETIVLI ? b_.getInt32(in.rs1 & 31) : ir_->read_x(in.rs1);
      vl = b_.CreateSelect(b_.CreateICmpULT(avl, threads), avl, threads);
    } else if (in.rd != 0) {
      vl = threads;
    }
    ir_->store(layout_.vtype, b_.getInt32(vtype));
    ir_->store(layout_.sew, b_.getInt32(sim::sew_of(vtype)));
    ir_->store(layout_.lmul, b_.getInt32(sim::lmul_of(vtype)));
    if (vl) ir_->store(layout_.vl, vl);
    ir_->write_x(in.rd, ir_->load(layout_.vl));
  }

  // The thunk call for entries[k]: on a fault or a change of flow the function returns.
  void emit_call(const CachedInsn& entry, uint32_t pc, size_t k) {
    mxcsr_->close(b_);
    auto* entry_pointer =
        llvm::ConstantExpr::getIntToPtr(b_.getInt64(reinterpret_cast<uint64_t>(&entry)), ptr_);
    llvm::CallInst* status =
        call_helper(reinterpret_cast<uint64_t>(&call_semantics), i32_,
                    {ctx_, entry_pointer, b_.getInt32(pc + 4 * entry.prefixed), error_});
    auto* next = llvm::BasicBlock::Create(c_, "next", fn_);
    auto* faulted = llvm::BasicBlock::Create(c_, "faulted", fn_);
    auto* left = llvm::BasicBlock::Create(c_, "left", fn_);
    llvm::SwitchInst* which = b_.CreateSwitch(status, left, 2);
    which->addCase(b_.getInt32(kNext), next);
    which->addCase(b_.getInt32(kFaulted), faulted);
    b_.SetInsertPoint(faulted);
    finish(4 * k + 1);
    b_.SetInsertPoint(left);
    finish(4 * (k + 1) + 2);
    b_.SetInsertPoint(next);
  }

  // pc: the instruction's own (after its prefix, if any).
  void emit_scalar(const sim::Insn& in, uint32_t pc) {
    llvm::Value* a = ir_->read_x(in.rs1);
    llvm::Value* imm = b_.getInt32(static_cast<uint32_t>(in.imm));
    llvm::Value* shamt = b_.getInt32(static_cast<uint32_t>(in.imm) & 31);
    const auto shift_amount = [&] { return b_.CreateAnd(ir_->read_x(in.rs2), 31); };
    llvm::Value* r = nullptr;
    switch (in.op) {
      case Op::LUI: r = b_.getInt32(static_cast<uint32_t>(in.imm) << 12); break;
      case Op::AUIPC: r = b_.getInt32(pc + (static_cast<uint32_t>(in.imm) << 12)); break;
      case Op::JAL: r = b_.getInt32(pc + 4); break;  // the block goes on at the target
      case Op::SETRPC:
        r = b_.CreateAdd(a, imm);
        ir_->store(layout_.rpc, r);
        break;
      case Op::ADDI: r = b_.CreateAdd(a, imm); break;
      case Op::SLTI: r = b_.CreateZExt(b_.CreateICmpSLT(a, imm), i32_); break;
      case Op::SLTIU: r = b_.CreateZExt(b_.CreateICmpULT(a, imm), i32_); break;
      case Op::XORI: r = b_.CreateXor(a, imm); break;
      case Op::ORI: r = b_.CreateOr(a, imm); break;
      case Op::ANDI: r = b_.CreateAnd(a, imm); break;
      case Op::SLLI: r = b_.CreateShl(a, shamt); break;
      case Op::SRLI: r = b_.CreateLShr(a, shamt); break;
      case Op::SRAI: r = b_.CreateAShr(a, shamt); break;
      case Op::ADD: r = b_.CreateAdd(a, ir_->read_x(in.rs2)); break;
      case Op::SUB: r = b_.CreateSub(a, ir_->read_x(in.rs2)); break;
      case Op::SLL: r = b_.CreateShl(a, shift_amount()); break;
      case Op::SLT: r = b_.CreateZExt(b_.CreateICmpSLT(a, ir_->read_x(in.rs2)), i32_); break;
      case Op::SLTU: r = b_.CreateZExt(b_.CreateICmpULT(a, ir_->read_x(in.rs2)), i32_); break;
      case Op::XOR: r = b_.CreateXor(a, ir_->read_x(in.rs2)); break;
      case Op::SRL: r = b_.CreateLShr(a, shift_amount()); break;
      case Op::SRA: r = b_.CreateAShr(a, shift_amount()); break;
      case Op::OR: r = b_.CreateOr(a, ir_->read_x(in.rs2)); break;
      case Op::AND: r = b_.CreateAnd(a, ir_->read_x(in.rs2)); break;
      case Op::MUL: r = b_.CreateMul(a, ir_->read_x(in.rs2)); break;
      default: throw std::logic_error("JIT: no inline form for this scalar instruction");
    }
    ir_->write_x(in.rd, r);
  }

  // A scalar branch, which only sets next_pc (semantics/scalar.cpp branch_if): the block goes
  // on along the path it follows (Block::Exit::next_pc: the next instruction, or the target where
  // only that had run when the block was translated, takes_target), and leaves on the other,
  // taken as kJumped, not taken with the warp at the next instruction.
  void emit_branch(const Block& block, size_t k) {
    const CachedInsn& entry = block.insns[k];
    const uint32_t after = block.pcs[k] + 4 * entry.prefixed + entry.length;
    const bool follows_target = block.exits[k].next_pc != after;
    auto* jumped = llvm::BasicBlock::Create(c_, "jumped", fn_);
    auto* fell = llvm::BasicBlock::Create(c_, "fell_through", fn_);
    auto* done = llvm::BasicBlock::Create(c_, "branch_done", fn_);
    b_.CreateCondBr(scalar_branch_taken(entry.insn), jumped, fell);
    b_.SetInsertPoint(jumped);
    if (follows_target)
      b_.CreateBr(done);
    else
      finish(4 * (k + 1) + Block::kJumped);
    b_.SetInsertPoint(fell);
    if (follows_target)
      leave_at(b_.getInt32(after), k);
    else
      b_.CreateBr(done);
    b_.SetInsertPoint(done);
  }

  // A vector branch (semantics/control.cpp vbranch): no active lane taken, the warp goes on at
  // pc + 4; every one, at the target; some, the warp splits (emit_split). The block goes on
  // where the warp goes on at its next entry (exits[k].next_pc, under the new mask), and leaves
  // otherwise (a jump to the target as kJumped).
  void emit_vbranch(const Block& block, size_t k) {
    const sim::Insn& in = block.insns[k].insn;
    const uint32_t pc = block.pcs[k];
    const uint32_t target = block.exits[k].taken_pc;
    const bool follows_target = block.exits[k].next_pc == target;
    llvm::Value* active = ir_->load(layout_.mask);
    llvm::Value* taken = taken_lanes(in, active);
    auto* none = llvm::BasicBlock::Create(c_, "none_taken", fn_);
    auto* some = llvm::BasicBlock::Create(c_, "some_taken", fn_);
    auto* all = llvm::BasicBlock::Create(c_, "all_taken", fn_);
    auto* split = llvm::BasicBlock::Create(c_, "split", fn_);
    auto* done = llvm::BasicBlock::Create(c_, "vbranch_done", fn_);
    b_.CreateCondBr(b_.CreateICmpEQ(taken, b_.getInt32(0)), none, some);
    b_.SetInsertPoint(some);
    b_.CreateCondBr(b_.CreateICmpEQ(taken, active), all, split);
    const bool over_lanes = loops_over_lanes(block, k);
    b_.SetInsertPoint(none);
    if (over_lanes)
      skip_join_after(k);
    else if (follows_target)
      leave_at(b_.getInt32(pc + 4), k);
    else
      b_.CreateBr(done);
    b_.SetInsertPoint(all);
    if (follows_target)
      b_.CreateBr(done);
    else
      finish(4 * (k + 1) + Block::kJumped);
    b_.SetInsertPoint(split);
    llvm::Value* next = emit_split(taken, active, pc, target, k);
    count_mask_change(block, active, k);
    if (over_lanes) {
      // The lanes that stay in the loop run first: on at the jump back, as when none is taken.
      auto* stays = llvm::BasicBlock::Create(c_, "stays_first", fn_);
      auto* elsewhere = llvm::BasicBlock::Create(c_, "split_elsewhere", fn_);
      llvm::SwitchInst* where = b_.CreateSwitch(next, elsewhere, 2);
      where->addCase(b_.getInt32(target), done);
      where->addCase(b_.getInt32(pc + 4), stays);
      b_.SetInsertPoint(stays);
      skip_join_after(k);
      b_.SetInsertPoint(elsewhere);
      leave_at(next, k);
    } else {
      go_on_if_next(next, block, k, done);
    }
    b_.SetInsertPoint(done);
  }

  // The active lanes that take the vector branch `in` (an i32 mask).
  llvm::Value* taken_lanes(const sim::Insn& in, llvm::Value* active) {
    llvm::Value* a = ir_->read_v(in.rs2);
    llvm::Value* c = ir_->read_v(in.rs1);
    llvm::Value* lanes = nullptr;
    switch (in.op) {
      case Op::VBEQ: lanes = b_.CreateICmpEQ(a, c); break;
      case Op::VBNE: lanes = b_.CreateICmpNE(a, c); break;
      case Op::VBLT: lanes = b_.CreateICmpSLT(a, c); break;
      case Op::VBGE: lanes = b_.CreateICmpSGE(a, c); break;
      case Op::VBLTU: lanes = b_.CreateICmpULT(a, c); break;
      default: lanes = b_.CreateICmpUGE(a, c); break;
    }
    return b_.CreateAnd(b_.CreateBitCast(lanes, i32_), active);
  }

  // Whether entries[k] is the vector branch of a loop over the active lanes (next_in_trace):
  // the block goes on at the join at its target, entry k + 1, and then at the jump back at pc
  // + 4, entry k + 2. Compiled loops whose lanes leave at different rounds (spmv's rows) have
  // this shape too, with the leaving lanes taking the branch: in most rounds none does.
  static bool loops_over_lanes(const Block& block, size_t k) {
    const uint32_t target = block.exits[k].taken_pc;
    return block.exits[k].next_pc == target && k + 2 < block.insns.size() &&
           block.pcs[k + 1] == target && block.insns[k + 1].insn.op == Op::JOIN &&
           is_guarded(block.insns[k + 1]) && block.pcs[k + 2] == block.pcs[k] + 4;
  }

  // The warp goes on at the jump back after a loop's vector branch (loops_over_lanes), its
  // next instruction: the block goes on at entry k + 2 without the join, entry k + 1, which the
  // counts of the entries include (a repeat less, and its instruction back in the budget).
  void skip_join_after(size_t k) {
    add_to(tally_[kRepeats], b_.getInt64(~uint64_t{0}));
    b_.CreateStore(b_.CreateAdd(b_.CreateLoad(i64_, budget_), b_.getInt64(1)), budget_);
    b_.CreateBr(starts_[k + 2]);
  }

  // The split of a vector branch at pc whose taken lanes are some but not all of the active
  // ones: sim::split_warp's push of the SIMT stack, inline (the reconvergence entry, then the
  // path that runs second; the path with fewer lanes runs first, the taken one on a tie), where
  // the stack has room for two entries, and a call of sim::split_warp itself where it has not
  // (which faults). Returns where the warp goes on, under the mask of the path that runs first.
  llvm::Value* emit_split(llvm::Value* taken, llvm::Value* active, uint32_t pc, uint32_t target,
                          size_t k) {
    auto* push = llvm::BasicBlock::Create(c_, "push", fn_);
    auto* no_room = llvm::BasicBlock::Create(c_, "push_no_room", fn_);
    auto* faulted = llvm::BasicBlock::Create(c_, "split_faulted", fn_);
    auto* split_done = llvm::BasicBlock::Create(c_, "split_done", fn_);
    llvm::Value* depth = ir_->load(layout_.simt_depth);
    b_.CreateCondBr(b_.CreateICmpUGT(depth, b_.getInt32(sim::SimtStack::kCapacity - 2)), no_room,
                    push, llvm::MDBuilder(c_).createBranchWeights(1, 1u << 20));

    b_.SetInsertPoint(push);
    llvm::Value* fall_through = b_.CreateAnd(active, b_.CreateNot(taken));
    llvm::Function* popcount =
        llvm::Intrinsic::getDeclaration(fn_->getParent(), llvm::Intrinsic::ctpop, {i32_});
    llvm::Value* taken_first =
        b_.CreateICmpULE(b_.CreateCall(popcount, {taken}), b_.CreateCall(popcount, {fall_through}));
    llvm::Value* rpc = ir_->load(layout_.rpc);
    store_simt_entry(depth, {rpc, rpc, active});
    store_simt_entry(b_.CreateAdd(depth, b_.getInt32(1)),
                     {rpc, b_.CreateSelect(taken_first, b_.getInt32(pc + 4), b_.getInt32(target)),
                      b_.CreateSelect(taken_first, fall_through, taken)});
    ir_->store(layout_.simt_depth, b_.CreateAdd(depth, b_.getInt32(2)));
    ir_->store(layout_.mask, b_.CreateSelect(taken_first, taken, fall_through));
    llvm::Value* divergences =
        b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), ctx_, exec_layout().divergences);
    b_.CreateAlignedStore(
        b_.CreateAdd(b_.CreateAlignedLoad(i32_, divergences, llvm::Align(4)), b_.getInt32(1)),
        divergences, llvm::Align(4));
    llvm::Value* pushed_next =
        b_.CreateSelect(taken_first, b_.getInt32(target), b_.getInt32(pc + 4));
    b_.CreateBr(split_done);

    b_.SetInsertPoint(no_room);
    llvm::Value* called_next =
        call_helper(reinterpret_cast<uint64_t>(&split_warp), i64_,
                    {ctx_, taken, b_.getInt32(pc), b_.getInt32(target), error_});
    llvm::Value* called_pc = b_.CreateTrunc(called_next, i32_);
    b_.CreateCondBr(b_.CreateICmpEQ(called_next, b_.getInt64(kSplitFaulted)), faulted, split_done);
    b_.SetInsertPoint(faulted);
    finish(4 * k + Block::kFaulted);

    b_.SetInsertPoint(split_done);
    llvm::PHINode* next = b_.CreatePHI(i32_, 2);
    next->addIncoming(pushed_next, push);
    next->addIncoming(called_pc, no_room);
    return next;
  }

  // join (semantics/control.cpp, sim::join_pops, inline): where the SIMT stack's top belongs to
  // it, it pops the top and the warp goes on at the top's resume pc with its mask, else at
  // pc + 4. An entry that resumes at the join itself (a reconvergence entry) runs it again
  // here, counted in Tally::repeats, each repeat within the budget as the interpreter's next
  // instruction would be. The block goes on where the warp goes on at its next entry
  // (exits[k].next_pc), and leaves otherwise.
  void emit_join(const Block& block, size_t k) {
    const uint32_t pc = block.pcs[k];
    auto* join = llvm::BasicBlock::Create(c_, "join", fn_);
    auto* pop = llvm::BasicBlock::Create(c_, "join_pop", fn_);
    auto* no_pop = llvm::BasicBlock::Create(c_, "join_no_pop", fn_);
    auto* again = llvm::BasicBlock::Create(c_, "join_again", fn_);
    auto* stop = llvm::BasicBlock::Create(c_, "join_stop", fn_);
    auto* went = llvm::BasicBlock::Create(c_, "join_went", fn_);
    auto* done = llvm::BasicBlock::Create(c_, "join_done", fn_);
    b_.CreateBr(join);
    b_.SetInsertPoint(join);
    llvm::Value* top = branch_on_join_top(pc, pop, no_pop);

    b_.SetInsertPoint(no_pop);
    go_on_if_next(b_.getInt32(pc + 4), block, k, done);

    b_.SetInsertPoint(pop);
    llvm::Value* before = ir_->load(layout_.mask);
    llvm::Value* next = pop_simt_top(top);
    count_mask_change(block, before, k);
    b_.CreateCondBr(b_.CreateICmpEQ(next, b_.getInt32(pc)), again, went);
    b_.SetInsertPoint(again);
    add_to(tally_[kRepeats], b_.getInt64(1));
    llvm::Value* left = b_.CreateSub(b_.CreateLoad(i64_, budget_), b_.getInt64(1));
    b_.CreateStore(left, budget_);
    b_.CreateCondBr(b_.CreateICmpULT(left, b_.getInt64(block.exits[k].counts.warp)), stop, join);
    b_.SetInsertPoint(stop);
    finish(4 * k);
    b_.SetInsertPoint(went);
    go_on_if_next(next, block, k, done);
    b_.SetInsertPoint(done);
  }

  // sim::join_pops's test for a join at join_pc: branches to `pop` where the SIMT stack's top
  // entry belongs to it (its rpc), else to `no_pop`. Returns the top's index (for `pop`).
  llvm::Value* branch_on_join_top(uint32_t join_pc, llvm::BasicBlock* pop,
                                  llvm::BasicBlock* no_pop) {
    auto* has_top = llvm::BasicBlock::Create(c_, "join_has_top", fn_);
    llvm::Value* depth = ir_->load(layout_.simt_depth);
    b_.CreateCondBr(b_.CreateICmpEQ(depth, b_.getInt32(0)), no_pop, has_top);
    b_.SetInsertPoint(has_top);
    llvm::Value* top = b_.CreateSub(depth, b_.getInt32(1));
    b_.CreateCondBr(
        b_.CreateICmpEQ(load_simt_field(top, offsetof(sim::SimtEntry, rpc)), b_.getInt32(join_pc)),
        pop, no_pop);
    return top;
  }
  // Pops the top entry, at index `top`, into the warp's mask; returns where it resumes.
  llvm::Value* pop_simt_top(llvm::Value* top) {
    ir_->store(layout_.mask, load_simt_field(top, offsetof(sim::SimtEntry, mask)));
    ir_->store(layout_.simt_depth, top);
    return load_simt_field(top, offsetof(sim::SimtEntry, resume_pc));
  }

  // The SIMT stack's entries[index] (an i32 index), field at byte `offset` of sim::SimtEntry.
  llvm::Value* simt_field(llvm::Value* index, uint64_t offset) {
    llvm::Value* at =
        b_.CreateAdd(b_.getInt64(layout_.simt_entries + offset),
                     b_.CreateMul(b_.CreateZExt(index, i64_), b_.getInt64(sizeof(sim::SimtEntry))));
    return b_.CreateInBoundsGEP(b_.getInt8Ty(), warp_, at);
  }
  llvm::Value* load_simt_field(llvm::Value* index, uint64_t offset) {
    return b_.CreateAlignedLoad(i32_, simt_field(index, offset), llvm::Align(4));
  }
  struct SimtEntryValues {
    llvm::Value *rpc, *resume_pc, *mask;
  };
  void store_simt_entry(llvm::Value* index, const SimtEntryValues& entry) {
    b_.CreateAlignedStore(entry.rpc, simt_field(index, offsetof(sim::SimtEntry, rpc)),
                          llvm::Align(4));
    b_.CreateAlignedStore(entry.resume_pc, simt_field(index, offsetof(sim::SimtEntry, resume_pc)),
                          llvm::Align(4));
    b_.CreateAlignedStore(entry.mask, simt_field(index, offsetof(sim::SimtEntry, mask)),
                          llvm::Align(4));
  }

  // Branches to `done` when the warp goes on at entries[k]'s next entry, else leaves there.
  void go_on_if_next(llvm::Value* next, const Block& block, size_t k, llvm::BasicBlock* done) {
    auto* elsewhere = llvm::BasicBlock::Create(c_, "elsewhere", fn_);
    b_.CreateCondBr(b_.CreateICmpEQ(next, b_.getInt32(block.exits[k].next_pc)), done, elsewhere);
    b_.SetInsertPoint(elsewhere);
    leave_at(next, k);
  }

  // A call of a noexcept host function at `address`.
  llvm::CallInst* call_helper(uint64_t address, llvm::Type* result,
                              std::initializer_list<llvm::Value*> arguments) {
    return call_host(b_, address, result, arguments);
  }
  BlockValues values() {
    return {b_, ctx_, warp_, lane_addresses_, lane_pointers_, shadows(), tier_};
  }

  llvm::LLVMContext& c_;
  llvm::IRBuilder<> b_;
  const WarpLayout& layout_;
  const Tier tier_;
  llvm::Type *i32_ = nullptr, *i64_ = nullptr;
  llvm::PointerType* ptr_ = nullptr;
  llvm::FixedVectorType* lanes_ = nullptr;
  llvm::Function* fn_ = nullptr;
  llvm::Value *ctx_ = nullptr, *warp_ = nullptr, *error_ = nullptr, *tally_out_ = nullptr;
  llvm::Value* budget_ = nullptr;  // what is left at the start of the round
  std::vector<llvm::BasicBlock*> starts_;  // where each entry's code starts (emit)
  llvm::BasicBlock* exit_ = nullptr;  // where finish goes, with Block::Fn's result in result_
  llvm::PHINode* result_ = nullptr;
  // Block::Tally's fields, in its order, stored to tally_out_ when the block returns.
  enum TallyField : size_t { kRounds, kRepeats, kChange, kChangeAt, kTallyFields };
  std::array<llvm::AllocaInst*, kTallyFields> tally_{};
  // thread_pointers' addresses and host pointers, one per lane.
  llvm::AllocaInst *lane_addresses_ = nullptr, *lane_pointers_ = nullptr;
  std::unique_ptr<MxcsrRun> mxcsr_;  // closed before each call and return
  // Only Optimized code keeps the warp's fields in SSA values: at -O0 (Tier::Quick) the fast
  // register allocator spills every live 32-lane value at each basic block's end, which made
  // quick code 3.5 times slower (saxpy --jit force-quick 899 -> 257 M thread-insn/s).
  FieldShadows* shadows() { return tier_ == Tier::Optimized ? &shadows_ : nullptr; }
  FieldShadows shadows_;
  std::optional<WarpIr> ir_;         // made once warp_ is known
};

// Whether the entry at pc, a guarded scalar or vector branch or an inlined jal, goes to start
// when taken (a jal always is): the block ends there and loops (Block::loops). Compiled loops often
// close with `j` to their head; unrolled instead, such a loop filled 64-instruction blocks that
// started all over its body (nbody's inner loop: 18 blocks, 2.2 s of compiling).
bool branches_to(const CachedInsn& entry, uint32_t pc, uint32_t start) {
  const isa::InsnClass cls = isa::info(entry.insn.op).cls;
  const bool branch =
      is_guarded(entry) && (cls == isa::InsnClass::Branch || cls == isa::InsnClass::VBranch);
  const bool jump = entry.insn.op == Op::JAL && is_inlined(entry);
  return (branch || jump) && !entry.prefixed && pc + static_cast<uint32_t>(entry.insn.imm) == start;
}

// Where a block goes on after the entry at pc (Block::Exit::next_pc): the next instruction, an
// inlined jal's target, and for a vector branch to a join at pc + 8 with a jump back at pc + 4, the
// join. That is a loop over the active lanes (ventus cc's atomics: each round, the one lane that
// takes the branch runs first, to the join, which pops to the others at the jump back), so the
// join's own next entry is then the jump (resume_after_join carries it from the branch to the
// join): the whole round stays in one block that loops. Elsewhere (a kernel's early return, an
// if) the branch's target is a join too, but the lanes usually fall through or all take it.
constexpr uint64_t kNoResume = ~uint64_t{0};  // no pc
uint32_t next_in_trace(const CachedInsn& entry, uint32_t pc, const sim::DecodeCache& cache,
                       uint64_t& resume_after_join) {
  const uint32_t own = pc + 4 * entry.prefixed;  // the instruction's pc, after any prefix
  const uint32_t after = own + entry.length;
  const uint64_t resume = std::exchange(resume_after_join, kNoResume);
  if (entry.insn.op == Op::JAL && is_inlined(entry))
    return own + static_cast<uint32_t>(entry.insn.imm);
  if (entry.insn.op == Op::JOIN && is_guarded(entry))
    return resume == kNoResume ? after : static_cast<uint32_t>(resume);
  if (is_guarded(entry) && isa::info(entry.insn.op).cls == isa::InsnClass::VBranch &&
      entry.insn.imm == 8) {
    const CachedInsn* jump = cache.decoded_at(after);
    const CachedInsn* join = cache.decoded_at(after + 4);
    if (jump && jump->insn.op == Op::JAL && is_inlined(*jump) && jump->insn.imm <= 0 && join &&
        join->insn.op == Op::JOIN && is_guarded(*join)) {
      resume_after_join = after;
      return after + 4;
    }
  }
  return after;
}

// Whether the block goes on at the target of entry, a scalar branch at pc, rather than at its
// next instruction: only the target has run so far (the next instruction is not decoded), and
// it is new to the block. The start code's and kernel prologues' checks that jump over code
// (a .bss clear of nothing, a global size that fits) then stay in one block, not two joined
// by a return to the scheduler; a not-taken branch leaves the block at its next instruction.
bool takes_target(const CachedInsn& entry, uint32_t pc, const Block& block,
                  const sim::DecodeCache& cache) {
  if (!is_guarded(entry) || isa::info(entry.insn.op).cls != isa::InsnClass::Branch) return false;
  const uint32_t own = pc + 4 * entry.prefixed;
  const uint32_t target = own + static_cast<uint32_t>(entry.insn.imm);
  return !cache.decoded_at(own + entry.length) && cache.decoded_at(target) &&
         std::find(block.pcs.begin(), block.pcs.end(), target) == block.pcs.end();
}

// The words an entry was decoded from: equal words decode to the same entry.
bool same_words(const CachedInsn& a, const CachedInsn& b) {
  return a.insn.raw == b.insn.raw && a.insn.raw_hi == b.insn.raw_hi &&
         a.prefix_word == b.prefix_word && a.prefixed == b.prefixed && a.length == b.length;
}

}  // namespace

bool Block::same_code(const sim::Memory& memory) const {
  const auto holds = [&](uint32_t address, uint32_t word) {
    uint32_t now = 0;
    return memory.read(address, &now, 4) && now == word;
  };
  const auto same = [&](uint32_t pc, const CachedInsn& entry) {
    return entry.prefixed ? holds(pc, entry.prefix_word) && holds(pc + 4, entry.insn.raw)
                          : holds(pc, entry.insn.raw) &&
                                (entry.length != 8 || holds(pc + 4, entry.insn.raw_hi));
  };
  for (size_t k = 0; k < insns.size(); ++k)
    if (!same(pcs[k], insns[k])) return false;
  return !join_after_loop || same(pcs.back() + 4, *join_after_loop);
}

Block::Fit Block::fit(const sim::DecodeCache& cache) const {
  const auto fits = [&](uint32_t pc, const CachedInsn& insn) {
    const CachedInsn* entry = cache.decoded_at(pc);
    if (!entry) return Fit::NotDecodedYet;
    return same_words(*entry, insn) ? Fit::Runs : Fit::OtherCode;
  };
  for (size_t k = 0; k < insns.size(); ++k)
    if (const Fit f = fits(pcs[k], insns[k]); f != Fit::Runs) return f;
  return join_after_loop ? fits(pcs.back() + 4, *join_after_loop) : Fit::Runs;
}

// The translators whose compile threads run, stopped at process exit. A compile thread must
// not outlive LLVM's static objects, which its compiles use: the OpenCL library's device is
// never destroyed, so at exit its compile thread may still be compiling (a block queued as the
// last launch ended) while exit runs the static destructors. exit runs the functions
// registered with std::atexit and the static destructors in the reverse order of their
// registration, and LLVM 15 constructs some of its statics at their first use (the
// SelectionDAG's value type list, say): a compile thread's first compile would construct them
// after a stop registered when the thread started, and exit would destroy them before it
// stops the thread. So a warm-up function is compiled first, in the calling thread
// (Engine::warm_up, which constructs them), and only then is stop_all registered; every static
// LLVM's compiles use is then destroyed after stop_all has joined the compile threads. It is
// done once, by sim::prepare_translation (the OpenCL platform's clCreateKernel, ventus bench
// before its launches) or else by the first start, inside that launch's time.
class CompileThreads {
 public:
  static CompileThreads& get() {
    static auto* const threads = new CompileThreads;  // never destroyed: stop_all uses it
    return *threads;
  }

  // The warm-up and the exit hook, once: where the first compile thread would start, or
  // earlier (Translator::prepare_process). Throws when LLVM fails.
  void prepare() {
    std::lock_guard lock(mutex_);
    prepare_locked();
  }

  // Starts translator's compile thread; false when there is none to be had (at exit, when
  // the system has no thread to give, or LLVM fails).
  bool start(Translator& translator) {
    std::lock_guard lock(mutex_);
    try {
      if (!prepare_locked()) return false;
      translator.compiler_ = std::thread([&translator] { translator.compile_queued(); });
    } catch (const std::exception&) {
      return false;
    }
    running_.push_back(&translator);
    return true;
  }

  void stop(Translator& translator) {
    std::lock_guard lock(mutex_);
    std::erase(running_, &translator);
    translator.stop_compiling();
  }

 private:
  static void stop_all() {
    CompileThreads& threads = get();
    std::lock_guard lock(threads.mutex_);
    threads.exiting_ = true;
    for (Translator* translator : threads.running_) translator->stop_compiling();
    threads.running_.clear();
  }

  // False at exit, or when the hook cannot be registered.
  bool prepare_locked() {
    if (exiting_) return false;
    if (stop_at_exit_registered_) return true;
    Translator::Engine().warm_up();  // its objects stay; the engine and its code go
    if (std::atexit(stop_all) != 0) return false;
    stop_at_exit_registered_ = true;
    return true;
  }

  // Taken before a translator's mutexes, never while one of them is held.
  std::mutex mutex_;
  std::vector<Translator*> running_;
  bool stop_at_exit_registered_ = false;
  bool exiting_ = false;
};

Translator::Translator() = default;

Translator::~Translator() {
  CompileThreads::get().stop(*this);
}

void Translator::stop_compiling() {
  {
    std::lock_guard lock(mutex_);
    no_compile_thread_ = true;
    in_background_ = false;
    queue_.clear();
  }
  queued_.notify_one();
  if (compiler_.joinable()) compiler_.join();  // after the compile in flight
}

void Translator::prepare_process() {
  CompileThreads::get().prepare();
}

void Translator::begin_launch(const sim::Memory& memory, sim::JitMode mode, bool every_core_busy) {
  std::lock_guard lock(mutex_);
  in_background_ = mode == sim::JitMode::On && !no_compile_thread_;
  at_once_ = mode == sim::JitMode::ForceQuick ? Tier::Quick : Tier::Optimized;
  budgeted_ = in_background_ && every_core_busy;
  launch_start_ = std::chrono::steady_clock::now();
  spent_ = std::chrono::nanoseconds{0};
  // A block stays while its code is read-only and, when read-only memory may have changed,
  // still holds the words it was translated from: a program loaded again (an OpenCL program
  // built again) keeps its translations, where dropping them all recompiled every hot block.
  const uint64_t generation = memory.read_only_generation();
  const bool same_generation = generation == read_only_generation_;
  const auto unchanged = [&](const Block* b) {
    return !b || (memory.is_read_only(b->first_byte, b->code_bytes) &&
                  (same_generation || b->same_code(memory)));
  };
  const auto unchanged_slot = [&](const auto& slot) { return unchanged(slot.second.get()); };
  const bool keep = std::all_of(blocks_.begin(), blocks_.end(), unchanged_slot) &&
                    std::all_of(unpaid_.begin(), unpaid_.end(), unchanged_slot) &&
                    std::all_of(queue_.begin(), queue_.end(),
                                [&](const auto& block) { return unchanged(block.get()); }) &&
                    unchanged(in_flight_);
  read_only_generation_ = generation;
  if (!keep || !same_generation) ++epoch_;
  if (keep) {
    // A pc refused for new code may start a block now.
    if (!same_generation) std::erase_if(blocks_, [](const auto& slot) { return !slot.second; });
    return;
  }
  ++generation_;  // the compile in flight, if any, is discarded when it ends
  unpaid_.clear();
  queue_.clear();
  tier_up_queue_.clear();
  compiling_.clear();
  std::lock_guard engine_lock(engine_mutex_);  // waits for the compile in flight
  blocks_.clear();                             // after it: a tier-up compile reads its block
  if (engine_) engine_->clear();
}

namespace {

// The block from pc on in the decoded code, while instructions are decoded there and at most
// kMaxBlockInstructions. Null when the rest is not decoded yet (then try again at a later
// execution); worth_compiling: some entry runs inline (a block of calls only runs no faster
// than the interpreter).
std::unique_ptr<Block> build_block(uint32_t pc, const sim::DecodeCache& cache,
                                   bool& worth_compiling) {
  auto block = std::make_unique<Block>();
  bool complete = false;  // false: stopped early by code not decoded yet
  uint32_t at = pc, first = pc;
  uint64_t end = pc;
  size_t inlined = 0;
  uint64_t resume_after_join = kNoResume;  // next_in_trace's
  while (block->insns.size() < kMaxBlockInstructions) {
    const CachedInsn* entry = cache.decoded_at(at);
    if (!entry) {
      // Not executed in this launch yet. After a guarded entry that is the path its
      // semantics have not taken so far (a loop's exit, say): the block ends there, since
      // waiting for that path could leave the whole loop untranslated. Otherwise the rest
      // runs soon: try again at a later execution.
      complete = !block->insns.empty() && is_guarded(block->insns.back());
      break;
    }
    const bool inline_it = is_inlined(*entry);
    block->insns.push_back(*entry);
    block->pcs.push_back(at);
    block->called.push_back(!inline_it && !is_guarded(*entry));
    inlined += !block->called.back();
    const Block::Before last = block->before(block->exits.size());
    const uint32_t own = at + 4 * entry->prefixed;  // after any prefix
    block->exits.push_back({{last.warp + 1 + entry->prefixed,
                             last.scalar_lanes + entry->prefixed + (entry->counts_lanes ? 0 : 1),
                             last.vector + entry->counts_lanes},
                            0,
                            own + static_cast<uint32_t>(entry->insn.imm)});
    first = std::min(first, at);
    end = std::max<uint64_t>(end, uint64_t{at} + 4 * entry->prefixed + entry->length);
    const uint32_t next = next_in_trace(*entry, at, cache, resume_after_join);
    at = takes_target(*entry, at, *block, cache) ? block->exits.back().taken_pc : next;
    block->exits.back().next_pc = at;
    if (branches_to(*entry, block->pcs.back(), pc)) {
      block->loops = true;
      complete = true;
      if (isa::info(entry->insn.op).cls == isa::InsnClass::VBranch) {
        // Not taken, it goes on at the next instruction, also where next_in_trace took it for
        // a loop over the active lanes, whose join, at its target, is then the block's start.
        // A join at the next instruction is the one the lanes leaving the loop run first.
        block->exits.back().next_pc = own + 4;
        const CachedInsn* join = cache.decoded_at(own + 4);
        if (join && join->insn.op == Op::JOIN && is_guarded(*join)) {
          block->join_after_loop = *join;
          end = std::max<uint64_t>(end, uint64_t{own} + 8);
        }
      }
      break;
    }
    // A jal back into the block (a loop entered from above): the block ends there rather than
    // unroll the loop, and the loop's head starts a block that loops.
    if (entry->insn.op == Op::JAL && inline_it &&
        std::find(block->pcs.begin(), block->pcs.end(), at) != block->pcs.end()) {
      complete = true;
      break;
    }
    if (ends_block(*entry)) {
      complete = true;
      break;
    }
  }
  if (block->insns.size() == kMaxBlockInstructions) complete = true;
  if (!complete) return nullptr;
  block->first_byte = first;
  block->code_bytes = end - first;
  worth_compiling = inlined > 0;
  return block;
}

}  // namespace

// What a block costs, predicted from its entries (e), the fp32 vector entries among them that
// run inline (f) and its thread accesses (a), the things these costs grow with
// (docs/performance.md, "What a compile costs" and "Rent or buy"):
// - a quick compile 1.6 ms + 0.27 ms e + 1.0 ms f + 3.1 ms a, an optimized one 2.5 ms +
//   0.85 ms e + 6 ms f + 10.4 ms a: least-squares fits of 429 quick and 130 optimized compiles,
//   fp32 terms from cfd's blocks;
// - a start in the interpreter 15 ns e + 70 ns f + 300 ns a (`ventus bench --jit off`, and a
//   loop of fp32 vector arithmetic at 85 ns an instruction against 16 for integer ones);
// - a start in quick code 4 ns e + 150 ns a (what `ventus bench --jit force-quick` saves: 27-73
//   %); optimized code saves about 40 % of that (20-77 %).
// Quick: 15,000-60,000 starts for the blocks measured; optimized: tens of times that.
uint64_t break_even_starts(const Block& block, Tier tier) {
  uint64_t entries = 0, fp32 = 0, accesses = 0;
  for (const CachedInsn& entry : block.insns) {
    ++entries;
    fp32 += is_fp32_inlined(entry);
    accesses += is_thread_access(entry);
  }
  const uint64_t interpret_ns = 15 * entries + 70 * fp32 + 300 * accesses;
  const uint64_t quick_ns = 4 * entries + 150 * accesses;
  if (tier == Tier::Quick) {
    const uint64_t compile_ns =
        1'600'000 + 270'000 * entries + 1'000'000 * fp32 + 3'100'000 * accesses;
    return compile_ns / (interpret_ns - quick_ns);
  }
  const uint64_t compile_ns =
      2'500'000 + 850'000 * entries + 6'000'000 * fp32 + 10'400'000 * accesses;
  return compile_ns * 10 / (4 * quick_ns);
}

Translation Translator::find_or_translate(uint32_t pc, const sim::DecodeCache& cache,
                                          uint64_t starts) {
  std::unique_lock lock(mutex_);
  if (const auto found = blocks_.find(pc); found != blocks_.end())
    return {found->second.get(), true};
  if (const auto found = compiling_.find(pc); found != compiling_.end())
    return {nullptr, false, &found->second};
  // Every block goes through unpaid_, where a block compiled in the background waits while
  // every core simulates until its starts have cost what its compile will.
  auto unpaid = unpaid_.find(pc);
  if (unpaid == unpaid_.end()) {
    bool worth_compiling = false;
    std::unique_ptr<Block> built = build_block(pc, cache, worth_compiling);
    if (!built) return {};  // the rest is not decoded yet: try again at a later execution
    if (!worth_compiling) {
      blocks_[pc] = nullptr;
      return {nullptr, true};
    }
    unpaid = unpaid_.emplace(pc, std::move(built)).first;
  }
  if (in_background_) {
    Block& waiting = *unpaid->second;
    waiting.paying_starts += starts;
    if ((budgeted_ && waiting.paying_starts < break_even_starts(waiting, Tier::Quick)) ||
        queue_.size() >= kMaxQueued)
      return {};                // ask again at a later start
    waiting.paying_starts = 0;  // from here on, toward its Optimized compile
  }
  std::unique_ptr<Block> block = std::move(unpaid->second);
  unpaid_.erase(unpaid);
  if (!in_background_) {
    block->fn = compile(*block, at_once_);
    block->tier = at_once_;
    translated_in_process.fetch_add(1, std::memory_order_relaxed);
    return {(blocks_[pc] = std::move(block)).get(), true};
  }
  // Every block is compiled quick first, one that loops too: its rounds count toward its
  // tier-up (Sm::count_rounds). Compiled optimized at once, a loop's block took the compile
  // thread 0.1-0.3 s, which a short program's exit waited for.
  block->tier = Tier::Quick;
  const Translation queued{nullptr, false, &compiling_[pc]};
  queue_.push_back(std::move(block));
  if (compile_thread_claimed_) {
    queued_.notify_one();
    return queued;
  }
  // The first block to compile in the background: this caller starts the compile thread
  // (CompileThreads takes no lock while a translator's is held).
  compile_thread_claimed_ = true;
  lock.unlock();
  if (CompileThreads::get().start(*this)) return queued;
  lock.lock();
  no_compile_thread_ = true;
  in_background_ = false;
  // Here, as for a launch that compiles at once (no compile thread would compile them again).
  for (const std::unique_ptr<Block>& waiting : queue_) waiting->tier = at_once_;
  while (!queue_.empty()) compile_next(lock);
  return queued;
}

bool Translator::tier_up(const Block& hot, uint64_t starts) {
  std::lock_guard lock(mutex_);
  const auto found = blocks_.find(hot.pcs[0]);
  if (found == blocks_.end() || found->second.get() != &hot) return false;  // dropped since
  Block& block = *found->second;
  if (block.tier == Tier::Optimized || block.optimizing || !in_background_) return false;
  block.paying_starts += starts;
  if (budgeted_ && block.paying_starts < break_even_starts(block, Tier::Optimized)) return true;
  block.optimizing = true;
  tier_up_queue_.push_back(&block);
  queued_.notify_one();
  return false;
}

void Translator::end_launch() {
  bool held_back = false;
  {
    std::lock_guard lock(mutex_);
    // Only a compile thread over the launch's budget waits with work queued (compile_queued);
    // waking an idle one at every launch cost bitonic_sort's 120 short launches 5 % of its
    // time in futex calls and context switches.
    held_back = budgeted_ && (!queue_.empty() || !tier_up_queue_.empty());
    budgeted_ = false;
  }
  if (held_back) queued_.notify_one();
}

void Translator::compile_queued() {
  std::unique_lock lock(mutex_);
  for (;;) {
    queued_.wait(lock,
                 [&] { return no_compile_thread_ || !queue_.empty() || !tier_up_queue_.empty(); });
    if (no_compile_thread_) return;
    if (budgeted_) {
      // Over the budget: wait until the launch has run long enough to cover what was spent
      // (or ends, or the thread stops).
      const auto allowed = (std::chrono::steady_clock::now() - launch_start_) / kCompileShare;
      if (spent_ > allowed) {
        queued_.wait_for(lock, (spent_ - allowed) * kCompileShare);
        continue;
      }
    }
    compile_next(lock);
  }
}

namespace {

// The CPU time of the calling thread (a compile's cost to the launch, whatever the load).
std::chrono::nanoseconds thread_cpu_time() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return std::chrono::seconds(now.tv_sec) + std::chrono::nanoseconds(now.tv_nsec);
}

}  // namespace

void Translator::compile_next(std::unique_lock<std::mutex>& lock) {
  const uint64_t generation = generation_;
  if (queue_.empty()) {
    // A hot Quick block, compiled again while SMs may run its Quick code: it stays in blocks_
    // (begin_launch destroys its blocks only after the compile in flight).
    Block* block = tier_up_queue_.front();
    tier_up_queue_.pop_front();
    lock.unlock();
    Block::Fn optimized = nullptr;
    const std::chrono::nanoseconds cpu_before = thread_cpu_time();
    try {
      optimized = compile(*block, Tier::Optimized);
    } catch (...) {
      // The Quick code stays.
    }
    const std::chrono::nanoseconds cpu = thread_cpu_time() - cpu_before;
    lock.lock();
    spent_ += cpu;
    if (generation != generation_ || !optimized) return;  // dropped meanwhile, or failed
    block->fn.store(optimized, std::memory_order_release);
    block->tier = Tier::Optimized;
    tiered_up_in_process.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  std::unique_ptr<Block> block = std::move(queue_.front());
  queue_.pop_front();
  in_flight_ = block.get();
  lock.unlock();
  const std::chrono::nanoseconds cpu_before = thread_cpu_time();
  try {
    block->fn = compile(*block, block->tier);
    translated_in_process.fetch_add(1, std::memory_order_relaxed);
  } catch (...) {
    // The interpreter runs the block instead.
  }
  const std::chrono::nanoseconds cpu = thread_cpu_time() - cpu_before;
  lock.lock();
  spent_ += cpu;
  in_flight_ = nullptr;
  if (generation != generation_) return;  // begin_launch dropped its code meanwhile
  const uint32_t pc = block->pcs[0];
  if (!block->fn) {
    blocks_[pc] = nullptr;
    return;
  }
  const Block* installed = (blocks_[pc] = std::move(block)).get();
  compiling_.at(pc).store(installed, std::memory_order_release);
}

Block::Fn Translator::compile(const Block& block, Tier tier) {
  std::lock_guard lock(engine_mutex_);
  if (!engine_) engine_ = std::make_unique<Engine>();
  auto context = std::make_unique<llvm::LLVMContext>();
  // The entry pc names the block in profiles (VENTUS_JIT_PERF); the count keeps names unique
  // when code at that pc is translated again.
  const std::string name = fmt::format("block_{:08x}_{}", block.pcs[0], engine_->next_name++);
  std::unique_ptr<llvm::Module> module = engine_->module_for(*context, name, tier);
  BlockEmitter emitter(*context, *module, name, tier);
  emitter.emit(block);
  return engine_->compile(std::move(context), std::move(module), name);
}

}  // namespace ventus::jit
