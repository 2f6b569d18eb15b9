# Install layout: include/acl/*.h, include/aclnn/*.h, include/aclnnop/*.h, lib/libascendcl.so,
# lib/libacl_op_compiler.so, lib/libacl_cblas.so, lib/libacl_dvpp.so (the media API),
# lib/libnnopbase.so, lib/libopapi.so and the empty lib/libmsprofiler.so (see src/CMakeLists.txt),
# a CMake package (openacl::ascendcl, openacl::acl_op_compiler, openacl::acl_cblas,
# openacl::acl_dvpp, openacl::nnopbase, openacl::opapi, openacl::msprofiler) and
# lib/pkgconfig/ascendcl.pc, so programs link as they would against CANN; around them CANN's own
# directory names and set_env.sh (OpenaclCannLayout.cmake).
include(CMakePackageConfigHelpers)
set(OPENACL_LIBRARIES ascendcl msprofiler acl_op_compiler acl_dvpp acl_dvpp_mpi)
foreach(lib acl_cblas nnopbase opapi)
  if(TARGET ${lib})
    list(APPEND OPENACL_LIBRARIES ${lib})
  endif()
endforeach()
install(DIRECTORY include/acl include/openacl DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# The aclnn headers (aclnn/acl_meta.h, aclnn/aclnn_base.h, aclnnop/aclnn_<op>.h), where CANN
# puts them, beside acl/.
if(TARGET opapi)
  install(DIRECTORY include/aclnn include/aclnnop DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endif()
install(TARGETS ${OPENACL_LIBRARIES} EXPORT openaclTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT openaclTargets NAMESPACE openacl:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/openacl)
configure_package_config_file(cmake/openaclConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/openaclConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/openacl)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/openaclConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/openaclConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/openaclConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/openacl)
configure_file(cmake/ascendcl.pc.in ${CMAKE_CURRENT_BINARY_DIR}/ascendcl.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/ascendcl.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

include(cmake/OpenaclCannLayout.cmake)
if(OPENACL_CANN_LAYOUT)
  openacl_cann_layout(${OPENACL_LIBRARIES})
endif()
