#include "core/formats/native/native_layout.hpp"

namespace egdb::native {

std::string slice_file_name(int nbm, int nbk, int nwm, int nwk) {
    std::string name = "slice-";
    for (int c : {nbm, nbk, nwm, nwk}) name += static_cast<char>('0' + c);
    name += ".egdb";
    return name;
}

}  // namespace egdb::native
