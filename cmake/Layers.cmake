# engram_layer(NAME SOURCES file... LAYERS layer...): one layer of the product
# as a static library, engram_NAME, linking the layers below it that it uses.
# Headers are named from the project's root ("engine/plan.hpp"); which layer
# may include which is ARCHITECTURE.md's table, checked by tests/layers.
function(engram_layer name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "SOURCES;LAYERS")
  add_library(engram_${name} STATIC ${arg_SOURCES})
  target_include_directories(engram_${name} PUBLIC
    ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/include ${PROJECT_BINARY_DIR}/generated)
  engram_set_warnings(engram_${name})
  target_link_libraries(engram_${name} PUBLIC engram::deps engram::sdk)
  foreach(layer IN LISTS arg_LAYERS)
    target_link_libraries(engram_${name} PUBLIC engram_${layer})
  endforeach()
endfunction()
