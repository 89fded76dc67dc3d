// Must not compile: probing (probe) may not use the build layer.
#include "core/build/unit_chunks.hpp"
