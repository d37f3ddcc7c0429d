#pragma once
// Libraries whose own kernels barracuda leaves unchecked by design, told from a module's image (PTX text
// or cubin) by their kernels' names: NCCL's collectives run protocols of their own between GPUs (flags
// in peer memory, orders a checker would have to know the library to follow), and what the user's
// kernels around a collective rely on is the order it gives its stream, which stream ordering keeps.
// NCCL links the CUDA runtime statically, so its modules cannot be told apart by the library that loads
// them.
#include <optional>
#include <string>
#include <string_view>

namespace barracuda::runtime {

// What the report lists for the library whose kernels `image` holds; nullopt for any other module.
std::optional<std::string> library_code_in(std::string_view image);

}  // namespace barracuda::runtime
