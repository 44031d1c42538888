// The declaration in cfuzzing.h is all this module provides; SwiftPM needs one source file.
#include "cfuzzing.h"
