# dualrate_folder_units(OUT ROOT SOURCES...): one translation unit per folder of ROOT (a unity
# build), so that a folder's sources parse GiNaC, Eigen and the project's headers once: in a
# fresh clone's build the generator's units took 643 s of a core instead of 1097 s (2026-12-02).
# Each unit is ${CMAKE_CURRENT_BINARY_DIR}/folder_units/<folder>.cpp and includes its sources by
# their path relative to ROOT, which must be an include directory of the target: the unit's
# text is then the same in every clone, and ccache serves it to another clone (CMake's own
# UNITY_BUILD names the sources by absolute path). A unit is rewritten only when its list of
# sources changes. Sources with their own compile properties are to be left out of SOURCES.
# OUT: the units. The sources of one folder share a unit, so a name at namespace scope must
# be unique within its folder (anonymous namespaces included).
function(dualrate_folder_units out root)
  set(folders)
  foreach(source ${ARGN})
    file(RELATIVE_PATH relative ${root} ${source})
    get_filename_component(folder ${relative} DIRECTORY)
    if(folder STREQUAL "")
      set(folder top)
    endif()
    string(REPLACE "/" "_" key ${folder})
    list(APPEND folders ${key})
    string(APPEND text_${key} "#include \"${relative}\"\n")
  endforeach()
  list(REMOVE_DUPLICATES folders)
  set(units)
  foreach(key ${folders})
    set(unit ${CMAKE_CURRENT_BINARY_DIR}/folder_units/${key}.cpp)
    set(content "// The sources of one folder as one unit (cmake/FolderUnits.cmake).\n${text_${key}}")
    file(CONFIGURE OUTPUT ${unit} CONTENT "${content}" @ONLY)
    list(APPEND units ${unit})
  endforeach()
  set(${out} ${units} PARENT_SCOPE)
endfunction()
