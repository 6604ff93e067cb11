#===- cmake/Bitcode.cmake - Freestanding C to embedded LLVM bitcode --------===#
#
# vf_add_bitcode(NAME SOURCES a.c b.c [INCLUDES dir...] [FLAGS ...]
#                [TARGETS x86_64 nvptx64])
#
# Compiles freestanding C sources with clang-19 to LLVM bitcode for each
# target the project generates code for (TARGETS, default x86_64 and
# nvptx64), links each
# target's files into one module with llvm-link, and embeds the result in an
# OBJECT library `vf_bc_NAME` defining
#   vf_bc_NAME_x86_64[] / vf_bc_NAME_x86_64_len
#   vf_bc_NAME_nvptx64[] / vf_bc_NAME_nvptx64_len
#
# Both targets use -ffp-contract=off: the CPU and the GPU must round alike,
# so no a*b+c is fused on one target and not on the other. The bitcode is
# kept scalar (-fno-vectorize -fno-slp-vectorize): it is inlined into the
# JIT's loops, whose O2 pipeline vectorizes across points, and the loop
# vectorizer cannot widen a loop that already holds vector instructions.
#
#===------------------------------------------------------------------------===#

find_program(VF_LLVM_LINK llvm-link HINTS ${LLVM_TOOLS_BINARY_DIR} REQUIRED)

set(VF_BITCODE_COMMON_FLAGS
  -O2 -emit-llvm -c -std=c11 -ffreestanding -fno-builtin -nostdlibinc
  -fno-exceptions -fno-unwind-tables -fno-asynchronous-unwind-tables
  -fno-math-errno -ffp-contract=off -fno-vectorize -fno-slp-vectorize
  -Werror -Wall
  # The kernels ask for vectorization that only the JIT's pipeline does.
  -Wno-pass-failed
  # Their per-dimension loops carry unroll(full) for the JIT, where the
  # dimension is a constant. Here it is not, and NVPTX's defaults would
  # fall back to runtime unrolling by 2, marking the loop done: the JIT
  # could then no longer unroll it, and the coordinates it indexes would
  # stay in local memory instead of registers.
  -mllvm -unroll-runtime=false)

set(VF_BITCODE_TRIPLE_x86_64 x86_64-unknown-linux-gnu)
set(VF_BITCODE_FLAGS_x86_64 -mno-red-zone -fno-stack-protector)
# The GPU target is stated whole - architecture and PTX ISA, both from
# runtime/kernels/PtxTargets.h - so that clang never takes the ISA from a
# CUDA toolkit it finds on the build machine (--cuda-feature skips the
# detection): the bitcode is the same with or without one, and builds on a
# machine that has none (bitcode.no_cuda_toolkit checks both).
file(STRINGS ${PROJECT_SOURCE_DIR}/runtime/kernels/PtxTargets.h VF_PTX_DEFINES
  REGEX "^#define VF_BITCODE_(GPU_ARCH|PTX_ISA) ")
string(REGEX REPLACE ".*VF_BITCODE_GPU_ARCH ([a-z0-9_]+).*" "\\1"
  VF_BITCODE_GPU_ARCH "${VF_PTX_DEFINES}")
string(REGEX REPLACE ".*VF_BITCODE_PTX_ISA ([0-9]+).*" "\\1"
  VF_BITCODE_PTX_ISA "${VF_PTX_DEFINES}")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
  ${PROJECT_SOURCE_DIR}/runtime/kernels/PtxTargets.h)
set(VF_BITCODE_TRIPLE_nvptx64 nvptx64-nvidia-cuda)
set(VF_BITCODE_FLAGS_nvptx64 -march=${VF_BITCODE_GPU_ARCH}
  --cuda-feature=+ptx${VF_BITCODE_PTX_ISA})
# Every nvptx64 compile, for the test that repeats it against an empty
# --cuda-path (tests/integration/bitcode_no_cuda.sh).
set(VF_BITCODE_NVPTX_COMMANDS ${PROJECT_BINARY_DIR}/bitcode-nvptx64-commands.txt)
file(WRITE ${VF_BITCODE_NVPTX_COMMANDS} "")

function(vf_add_bitcode NAME)
  cmake_parse_arguments(ARG "" "" "SOURCES;INCLUDES;FLAGS;TARGETS" ${ARGN})
  if(NOT ARG_TARGETS)
    set(ARG_TARGETS x86_64 nvptx64)
  endif()
  set(incflags)
  foreach(dir ${ARG_INCLUDES})
    list(APPEND incflags -I${dir})
  endforeach()
  set(generated)
  foreach(arch ${ARG_TARGETS})
    set(bcs)
    foreach(src ${ARG_SOURCES})
      get_filename_component(base ${src} NAME_WE)
      get_filename_component(abs ${src} ABSOLUTE)
      set(bc ${CMAKE_CURRENT_BINARY_DIR}/${NAME}_${base}_${arch}.bc)
      add_custom_command(OUTPUT ${bc}
        COMMAND ${VF_CLANG} ${VF_BITCODE_COMMON_FLAGS}
                --target=${VF_BITCODE_TRIPLE_${arch}} ${VF_BITCODE_FLAGS_${arch}}
                ${incflags} ${ARG_FLAGS} -MD -MF ${bc}.d ${abs} -o ${bc}
        DEPENDS ${abs}
        DEPFILE ${bc}.d
        COMMENT "Bitcode ${NAME} ${base}.c (${arch})"
        VERBATIM)
      list(APPEND bcs ${bc})
      if(arch STREQUAL "nvptx64")
        # "<output>\t<command without -o>", each argument single-quoted.
        set(line "${bc}\t")
        foreach(a ${VF_CLANG} ${VF_BITCODE_COMMON_FLAGS}
                  --target=${VF_BITCODE_TRIPLE_${arch}}
                  ${VF_BITCODE_FLAGS_${arch}} ${incflags} ${ARG_FLAGS} ${abs})
          string(APPEND line "'${a}' ")
        endforeach()
        file(APPEND ${VF_BITCODE_NVPTX_COMMANDS} "${line}\n")
      endif()
    endforeach()
    set(linked ${CMAKE_CURRENT_BINARY_DIR}/${NAME}_${arch}.bc)
    add_custom_command(OUTPUT ${linked}
      COMMAND ${VF_LLVM_LINK} ${bcs} -o ${linked}
      DEPENDS ${bcs}
      COMMENT "Linking bitcode ${NAME} (${arch})"
      VERBATIM)
    set(cpp ${CMAKE_CURRENT_BINARY_DIR}/vf_bc_${NAME}_${arch}.cpp)
    add_custom_command(OUTPUT ${cpp}
      COMMAND bin2cpp ${linked} ${cpp} vf_bc_${NAME}_${arch}
      DEPENDS ${linked} bin2cpp
      VERBATIM)
    list(APPEND generated ${cpp})
    add_custom_target(vf_bc_${NAME}_${arch}_file DEPENDS ${linked})
    set_property(GLOBAL PROPERTY VF_BC_${NAME}_${arch} ${linked})
  endforeach()
  add_library(vf_bc_${NAME} OBJECT ${generated})
endfunction()

# vf_embed_text(TARGET SYMBOL FILE): adds FILE's bytes to OBJECT library TARGET.
function(vf_embed_text TARGET SYMBOL FILE)
  get_filename_component(abs ${FILE} ABSOLUTE)
  set(cpp ${CMAKE_CURRENT_BINARY_DIR}/${SYMBOL}.cpp)
  add_custom_command(OUTPUT ${cpp}
    COMMAND bin2cpp ${abs} ${cpp} ${SYMBOL}
    DEPENDS ${abs} bin2cpp
    VERBATIM)
  target_sources(${TARGET} PRIVATE ${cpp})
endfunction()
