# meniscus_add_shaders(<target> <glsl files...>): compiles each GLSL file to SPIR-V with glslc at
# build time, into ${CMAKE_BINARY_DIR}/shaders/<name>.spv, where the engine loads them from.
find_program(GLSLC glslc REQUIRED)

function(meniscus_add_shaders target)
  set(outputs)
  foreach(source IN LISTS ARGN)
    get_filename_component(name ${source} NAME)
    set(output ${CMAKE_BINARY_DIR}/shaders/${name}.spv)
    add_custom_command(
      OUTPUT ${output}
      COMMAND ${GLSLC} --target-env=vulkan1.3 -O -I ${CMAKE_SOURCE_DIR}/shaders
              -MD -MF ${output}.d -o ${output} ${CMAKE_CURRENT_SOURCE_DIR}/${source}
      DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${source}
      DEPFILE ${output}.d
      COMMENT "glslc ${name}"
      VERBATIM)
    list(APPEND outputs ${output})
  endforeach()
  add_custom_target(${target} ALL DEPENDS ${outputs})
endfunction()
