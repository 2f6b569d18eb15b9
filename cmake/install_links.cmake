# Run by `cmake --install` (see OpenaclCannLayout.cmake): makes each link of OPENACL_LINKS,
# given as "<link>=<target>" with both paths relative to the prefix, as a relative symlink, so
# that the installed tree still works after it is moved or copied elsewhere.
set(_prefix "$ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}")
foreach(_pair IN LISTS OPENACL_LINKS)
  string(REPLACE "=" ";" _pair "${_pair}")
  list(GET _pair 0 _link)
  list(GET _pair 1 _target)
  get_filename_component(_dir "${_prefix}/${_link}" DIRECTORY)
  file(MAKE_DIRECTORY "${_dir}")
  file(RELATIVE_PATH _rel "${_dir}" "${_prefix}/${_target}")
  message(STATUS "Installing: ${_prefix}/${_link} -> ${_rel}")
  file(CREATE_LINK "${_rel}" "${_prefix}/${_link}" SYMBOLIC)
endforeach()
