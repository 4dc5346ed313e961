# Writes OUT, a C++ source defining NAME (bytes) and NAME_size from the binary file IN: the
# compiler cache sees the bytes themselves, so a changed binary is never served stale.
file(READ "${IN}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
file(WRITE "${OUT}" "// Generated from ${IN} by core/confine/embed_binary.cmake.\n#include <cstddef>\n\nnamespace arb {\nextern const unsigned char ${NAME}[] = {${bytes}};\nextern const std::size_t ${NAME}_size = sizeof ${NAME};\n}  // namespace arb\n")
