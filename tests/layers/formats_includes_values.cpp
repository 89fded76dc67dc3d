// Compiles: the control of the two wrong-way includes beside it, with the same include root
// (formats may use the value model, the index, the rules and util).
#include "core/formats/native/native_database.hpp"
#include "core/values/position_value.hpp"
