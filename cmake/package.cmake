# The Debian package, from the install rules (cmake/install.cmake):
#   cd build && cpack -G DEB         -> airscope_<version>_<arch>.deb
# Its Depends come from dpkg-shlibdeps on the binary (libreadline8, libfmt9,
# libgvc6, ... as Debian names them); nothing here names a library by hand.
# The binary is stripped (its dynamic symbol table, which plugins link
# against, stays). scripts/check-deb installs and removes it for real.
set(AIRSCOPE_PACKAGE_MAINTAINER "Seed a70e1187 maintainers <maintainers@users.noreply.a-seed-a70e1187.example>"
    CACHE STRING "The Maintainer of the Debian package")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME airscope)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "${AIRSCOPE_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "interactive debugger for the torch.compile -> TorchAir -> aclgraph pipeline (simulated NPU)")
set(CPACK_PACKAGE_DESCRIPTION
    "airscope loads the graphs torch prints and the logs it writes, steps through TorchAir's reduce-overhead "
    "pass pipeline one pass at a time, shows the guards and cache hits and misses of a Dynamo-like compile "
    "cache, and captures and replays the compiled graph on a simulated NPU with streams, events and a graph "
    "memory pool. No NPU and no torch are needed. The package also holds the C++ pass plugin API "
    "(find_package(airscope)) and an example plugin.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Building a plugin against the installed headers takes a compiler, CMake and fmt's headers.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "g++, cmake, libfmt-dev")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# No source package: the sources are the repository.
set(CPACK_SOURCE_GENERATOR "")
include(CPack)
