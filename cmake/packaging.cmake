# Packaging: included by the top-level CMakeLists.txt when LANGSIFT_INSTALL is on (Debian package
# through CPack, man pages). Owned by the packaging work of issue #22.
