// Must not compile: the readers and writers (formats) may not use the solver (generate).
#include "core/generate/slice_solver.hpp"
