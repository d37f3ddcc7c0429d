#pragma once
// PTX opcodes: the first dot-separated word of an instruction's mnemonic. Opcodes the IR does not
// know decode to Opcode::Other and still round-trip (the mnemonic text is kept verbatim).
#include <cstdint>
#include <string_view>

namespace barracuda::ptx {

// X(enumerator, spelling). Grouped by ISA chapter; order carries no meaning.
#define BARRACUDA_PTX_OPCODES(X)                                                                  \
  /* integer and floating-point arithmetic */                                                    \
  X(Add, "add") X(Sub, "sub") X(Mul, "mul") X(Mad, "mad") X(Mul24, "mul24") X(Mad24, "mad24")      \
  X(Sad, "sad") X(Div, "div") X(Rem, "rem") X(Abs, "abs") X(Neg, "neg") X(Min, "min")             \
  X(Max, "max") X(Popc, "popc") X(Clz, "clz") X(Bfind, "bfind") X(Fns, "fns") X(Brev, "brev")      \
  X(Bfe, "bfe") X(Bfi, "bfi") X(Szext, "szext") X(Bmsk, "bmsk") X(Dp4a, "dp4a") X(Dp2a, "dp2a")   \
  X(Addc, "addc") X(Subc, "subc") X(Madc, "madc") X(Fma, "fma") X(Rcp, "rcp") X(Sqrt, "sqrt")     \
  X(Rsqrt, "rsqrt") X(Sin, "sin") X(Cos, "cos") X(Lg2, "lg2") X(Ex2, "ex2") X(Tanh, "tanh")      \
  X(Copysign, "copysign") X(Testp, "testp")                                                      \
  /* comparison, selection, logic, data movement */                                              \
  X(Set, "set") X(Setp, "setp") X(Selp, "selp") X(Slct, "slct") X(And, "and") X(Or, "or")         \
  X(Xor, "xor") X(Not, "not") X(Cnot, "cnot") X(Lop3, "lop3") X(Shf, "shf") X(Shl, "shl")          \
  X(Shr, "shr") X(Mov, "mov") X(Shfl, "shfl") X(Prmt, "prmt") X(Cvt, "cvt") X(Cvta, "cvta")       \
  X(Isspacep, "isspacep") X(Mapa, "mapa") X(Getctarank, "getctarank")                             \
  /* memory */                                                                                   \
  X(Ld, "ld") X(Ldu, "ldu") X(St, "st") X(StAsync, "st.async") X(Prefetch, "prefetch")            \
  X(Prefetchu, "prefetchu") X(Cp, "cp") X(Atom, "atom") X(Red, "red") X(RedAsync, "red.async")    \
  X(Mbarrier, "mbarrier") X(Createpolicy, "createpolicy")                \
  X(Discard, "discard") X(Applypriority, "applypriority") X(Multimem, "multimem")                 \
  X(Tensormap, "tensormap") X(Alloca, "alloca") X(Stackrestore, "stackrestore")                  \
  X(Stacksave, "stacksave")                                                                      \
  /* textures and surfaces */                                                                    \
  X(Tex, "tex") X(Tld4, "tld4") X(Txq, "txq") X(Suld, "suld") X(Sust, "sust") X(Sured, "sured")   \
  X(Suq, "suq") X(Istypep, "istypep")                                                            \
  /* control flow */                                                                             \
  X(Bra, "bra") X(Brx, "brx") X(Call, "call") X(Ret, "ret") X(Exit, "exit") X(Trap, "trap")       \
  X(Brkpt, "brkpt") X(Nanosleep, "nanosleep") X(Pmevent, "pmevent")                              \
  /* synchronization and communication */                                                        \
  X(Bar, "bar") X(Barrier, "barrier") X(Membar, "membar") X(Fence, "fence") X(Vote, "vote")       \
  X(Match, "match") X(Activemask, "activemask") X(Redux, "redux") X(Elect, "elect")                \
  X(Griddepcontrol, "griddepcontrol") X(Setmaxnreg, "setmaxnreg")                                \
  /* matrix and warpgroup */                                                                     \
  X(Mma, "mma") X(Wmma, "wmma") X(Ldmatrix, "ldmatrix") X(Stmatrix, "stmatrix")                  \
  X(Movmatrix, "movmatrix") X(Wgmma, "wgmma")

enum class Opcode : uint16_t {
#define BARRACUDA_PTX_OPCODE_ENUM(name, spelling) name,
  BARRACUDA_PTX_OPCODES(BARRACUDA_PTX_OPCODE_ENUM)
#undef BARRACUDA_PTX_OPCODE_ENUM
  Other,
};

// Decodes the opcode of a full mnemonic ("atom.global.add.u32" -> Atom). Two-word opcodes whose
// second word changes the meaning ("st.async", "red.async") are recognized as such.
Opcode opcode_of_mnemonic(std::string_view mnemonic);

std::string_view to_string(Opcode opcode);  // "" for Other

}  // namespace barracuda::ptx
