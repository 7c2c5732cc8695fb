/* cvcuda-c: umbrella header. Plain C99 (also valid C++11); needs no CUDA header.
 * Library: libcvcuda_c.so.1 (symbols in version node CVCUDA_C_1.0). Threading rules: docs/threading.md. */
#ifndef CVCUDA_CVCUDA_H
#define CVCUDA_CVCUDA_H

#include "export.h"
#include "version.h"
#include "status.h"
#include "types.h"
#include "device.h"
#include "array_interface.h"
#include "stream.h"
#include "tensor.h"
#include "border.h"
#include "copymakeborder.h"
#include "cvtcolor.h"
#include "dlpack_interop.h"
#include "flip.h"
#include "interp.h"
#include "resize.h"
#include "crop.h"
#include "convert_to.h"
#include "normalize.h"
#include "reformat.h"
#include "library.h"

#endif /* CVCUDA_CVCUDA_H */
