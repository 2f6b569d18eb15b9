# CANN's toolkit layout around the install (issue 14), so that CANN build files and the official
# samples find openacl where they look in /usr/local/Ascend/ascend-toolkit/latest:
#   lib64/                                       the library directory under CANN's name
#   runtime/include, compiler/include            the headers ($DDK_PATH/runtime/include)
#   runtime/lib64[/stub], compiler/lib64[/stub]  the libraries to link ($NPU_HOST_LIB), by linker
#                                                and SONAME names
#   set_env.sh                                   CANN's environment script
# Everything is a relative symlink into include/ and lib/, so the tree stays relocatable. CANN's
# stub directories hold link-only stand-ins; here they point at the real libraries, which is
# just as good for linking, and the programs find them at run time through set_env.sh.
# Switched by OPENACL_CANN_LAYOUT (top-level CMakeLists.txt).

# openacl_cann_layout(<library targets>): the links for the libraries that CANN build lines
# name (-lascendcl, -lacl_op_compiler, ...).
function(openacl_cann_layout)
  set(links "runtime/include=${CMAKE_INSTALL_INCLUDEDIR}" "compiler/include=${CMAKE_INSTALL_INCLUDEDIR}")
  if(NOT CMAKE_INSTALL_LIBDIR STREQUAL "lib64")
    list(APPEND links "lib64=${CMAKE_INSTALL_LIBDIR}")
  endif()
  # The SONAME links too: a library that needs another (libacl_dvpp_mpi needs libacl_dvpp.so.0)
  # links from these directories when the program names only the first, as CANN's do.
  foreach(lib IN LISTS ARGN)
    foreach(dir runtime/lib64 runtime/lib64/stub compiler/lib64 compiler/lib64/stub)
      foreach(name TARGET_LINKER_FILE_NAME TARGET_SONAME_FILE_NAME)
        list(APPEND links "${dir}/$<${name}:${lib}>=${CMAKE_INSTALL_LIBDIR}/$<${name}:${lib}>")
      endforeach()
    endforeach()
  endforeach()
  install(CODE "set(OPENACL_LINKS \"${links}\")")
  install(SCRIPT ${PROJECT_SOURCE_DIR}/cmake/install_links.cmake)

  if(TARGET acl_python)
    set(OPENACL_SET_ENV_PYTHONPATH
      "export PYTHONPATH=\"$_openacl_root/${OPENACL_PYTHON_INSTALL_DIR}\${PYTHONPATH:+:$PYTHONPATH}\"")
  endif()
  configure_file(${PROJECT_SOURCE_DIR}/cmake/set_env.sh.in ${PROJECT_BINARY_DIR}/set_env.sh @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/set_env.sh DESTINATION .)
endfunction()
