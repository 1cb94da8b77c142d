// `DateTime` and `Uuid` used to live here; they are value types of fitz/date.h now. Kept so
// code that names this header still finds them.
#pragma once

#include "fitz/date.h"
