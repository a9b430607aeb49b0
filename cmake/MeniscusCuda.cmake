# Resolves MENISCUS_CUDA (AUTO|ON|OFF) into MENISCUS_HAS_CUDA and enables the CUDA language.
#
# MENISCUS_CUDA_ON_CPU=ON is a test configuration instead: the same .cu sources are compiled by
# g++ against the CPU execution layer (tests/support/cuda_cpu: stand-ins for the CUDA runtime
# and CUB that run kernels on TBB with threads as fibers), so the CUDA backends and their
# CPU == CUDA tests run on machines without a GPU. Such a build makes no product executable.
include(CheckLanguage)
option(MENISCUS_CUDA_ON_CPU "Test build: run the CUDA backends on the CPU execution layer (no product executables)" OFF)
set(MENISCUS_HAS_CUDA OFF)
if(MENISCUS_CUDA_ON_CPU)
  set(MENISCUS_HAS_CUDA ON)
elseif(NOT MENISCUS_CUDA STREQUAL "OFF")
  if(NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    # Hopper (H100/H200) is the only GPU the project is measured on; one architecture keeps CI fast.
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES 90)
    endif()
    enable_language(CUDA)
    find_package(CUDAToolkit REQUIRED)
    # CMake 3.25 knows no C++20 flag for nvcc; the .cu files need only C++17.
    set(CMAKE_CUDA_STANDARD 17)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    set(MENISCUS_HAS_CUDA ON)
  elseif(MENISCUS_CUDA STREQUAL "ON")
    message(FATAL_ERROR "MENISCUS_CUDA=ON but no CUDA compiler (nvcc) was found")
  endif()
endif()
message(STATUS "Meniscus CUDA backends: ${MENISCUS_HAS_CUDA} (on the CPU execution layer: ${MENISCUS_CUDA_ON_CPU})")

# meniscus_cuda_sources(<target> SOURCES <files...> [NVCC_OPTIONS <options...>]): adds the CUDA
# backend's sources (.cu, and .cpp files that call the runtime) to <target> and links the CUDA
# runtime: nvcc and cudart normally, g++ and the CPU execution layer in a MENISCUS_CUDA_ON_CPU
# build. NVCC_OPTIONS apply to the .cu files under nvcc only; under g++ they are built without
# contracted multiply-adds, as --fmad=false asks of nvcc.
function(meniscus_cuda_sources target)
  cmake_parse_arguments(arg "" "" "SOURCES;NVCC_OPTIONS" ${ARGN})
  target_sources(${target} PRIVATE ${arg_SOURCES})
  set(cu_sources ${arg_SOURCES})
  list(FILTER cu_sources INCLUDE REGEX "\\.cu$")
  if(MENISCUS_CUDA_ON_CPU)
    # Each on its own: a unity batch would lose the options (and nvcc compiles them one by one).
    # The backend's sources are the ones this build instruments (MENISCUS_SANITIZER_OPTIONS).
    set_source_files_properties(${arg_SOURCES} PROPERTIES COMPILE_OPTIONS "${MENISCUS_SANITIZER_OPTIONS}"
                                                          SKIP_UNITY_BUILD_INCLUSION ON)
    if(cu_sources)
      set_source_files_properties(${cu_sources} PROPERTIES LANGUAGE CXX
                                  COMPILE_OPTIONS "-xc++;-ffp-contract=off;${MENISCUS_SANITIZER_OPTIONS}")
    endif()
    target_link_libraries(${target} PUBLIC meniscus_cuda_cpu)
  else()
    if(cu_sources AND arg_NVCC_OPTIONS)
      set_source_files_properties(${cu_sources} PROPERTIES COMPILE_OPTIONS "${arg_NVCC_OPTIONS}" SKIP_UNITY_BUILD_INCLUSION ON)
    endif()
    target_link_libraries(${target} PUBLIC CUDA::cudart)
  endif()
endfunction()
