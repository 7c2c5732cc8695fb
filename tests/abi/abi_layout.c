/* Prints, as JSON, what the C compiler makes of the public structs and enums: sizeof, alignment and every field's
 * offset and size. test_ctypes_abi.py compares it with what the ctypes binding declares. */
#include <cvcuda/cvcuda.h>

#include <stddef.h>
#include <stdio.h>

#define FIELD(type, field) \
    printf("%s\"%s\": [%zu, %zu]", first++ ? ", " : "", #field, offsetof(type, field), sizeof(((type *)0)->field))

int main(void) {
    int first = 0;
    printf("{\"structs\": {\"cvArrayInterface\": {\"size\": %zu, \"align\": %zu, \"fields\": {", sizeof(cvArrayInterface),
           _Alignof(cvArrayInterface));
    FIELD(cvArrayInterface, structSize);
    FIELD(cvArrayInterface, version);
    FIELD(cvArrayInterface, data);
    FIELD(cvArrayInterface, readonly);
    FIELD(cvArrayInterface, ndim);
    FIELD(cvArrayInterface, shape);
    FIELD(cvArrayInterface, strides);
    FIELD(cvArrayInterface, hasStrides);
    FIELD(cvArrayInterface, streamKind);
    FIELD(cvArrayInterface, stream);
    FIELD(cvArrayInterface, typestr);
    FIELD(cvArrayInterface, dtype);
    FIELD(cvArrayInterface, reserved0);
    first = 0;
    printf("}},\n \"cvTensorInfo\": {\"size\": %zu, \"align\": %zu, \"fields\": {", sizeof(cvTensorInfo), _Alignof(cvTensorInfo));
    FIELD(cvTensorInfo, structSize);
    FIELD(cvTensorInfo, ndim);
    FIELD(cvTensorInfo, shape);
    FIELD(cvTensorInfo, strides);
    FIELD(cvTensorInfo, data);
    FIELD(cvTensorInfo, dtype);
    FIELD(cvTensorInfo, readonly);
    FIELD(cvTensorInfo, ownsMemory);
    FIELD(cvTensorInfo, layout);
    FIELD(cvTensorInfo, reserved0);
    first = 0;
    printf("}},\n \"cvStats\": {\"size\": %zu, \"align\": %zu, \"fields\": {", sizeof(cvStats), _Alignof(cvStats));
    FIELD(cvStats, structSize);
    FIELD(cvStats, reserved0);
    FIELD(cvStats, deviceSyncs);
    FIELD(cvStats, eventRecords);
    FIELD(cvStats, eventWaits);
    FIELD(cvStats, kernelLaunches);
    FIELD(cvStats, liveTensors);
    FIELD(cvStats, liveStreams);
    first = 0;
    printf("}},\n \"cvResizeCropConvertParams\": {\"size\": %zu, \"align\": %zu, \"fields\": {",
           sizeof(cvResizeCropConvertParams), _Alignof(cvResizeCropConvertParams));
    FIELD(cvResizeCropConvertParams, structSize);
    FIELD(cvResizeCropConvertParams, resizeWidth);
    FIELD(cvResizeCropConvertParams, resizeHeight);
    FIELD(cvResizeCropConvertParams, interp);
    FIELD(cvResizeCropConvertParams, cropX);
    FIELD(cvResizeCropConvertParams, cropY);
    FIELD(cvResizeCropConvertParams, reverseChannels);
    FIELD(cvResizeCropConvertParams, srcCast);
    FIELD(cvResizeCropConvertParams, scale);
    FIELD(cvResizeCropConvertParams, offset);
    FIELD(cvResizeCropConvertParams, normalize);
    FIELD(cvResizeCropConvertParams, mean);
    FIELD(cvResizeCropConvertParams, stddev);
    first = 0;
    printf("}},\n \"cvNormalizeParams\": {\"size\": %zu, \"align\": %zu, \"fields\": {", sizeof(cvNormalizeParams),
           _Alignof(cvNormalizeParams));
    FIELD(cvNormalizeParams, structSize);
    FIELD(cvNormalizeParams, flags);
    FIELD(cvNormalizeParams, base);
    FIELD(cvNormalizeParams, scale);
    FIELD(cvNormalizeParams, baseValues);
    FIELD(cvNormalizeParams, scaleValues);
    FIELD(cvNormalizeParams, baseCount);
    FIELD(cvNormalizeParams, scaleCount);
    FIELD(cvNormalizeParams, globalScale);
    FIELD(cvNormalizeParams, globalShift);
    FIELD(cvNormalizeParams, epsilon);
    FIELD(cvNormalizeParams, reserved);
    first = 0;
    printf("}},\n \"cvCopyMakeBorderParams\": {\"size\": %zu, \"align\": %zu, \"fields\": {",
           sizeof(cvCopyMakeBorderParams), _Alignof(cvCopyMakeBorderParams));
    FIELD(cvCopyMakeBorderParams, structSize);
    FIELD(cvCopyMakeBorderParams, top);
    FIELD(cvCopyMakeBorderParams, left);
    FIELD(cvCopyMakeBorderParams, borderMode);
    FIELD(cvCopyMakeBorderParams, borderValue);
    printf("}}},\n \"enums\": {\"cvStatus\": %zu, \"cvDataType\": %zu, \"cvCaiStreamKind\": %zu, \"cvRoundMode\": %zu, "
           "\"cvInterp\": %zu, \"cvBorderMode\": %zu, \"cvColorConversion\": %zu, \"cvColorSpec\": %zu},\n",
           sizeof(cvStatus), sizeof(cvDataType), sizeof(cvCaiStreamKind), sizeof(cvRoundMode), sizeof(cvInterp),
           sizeof(cvBorderMode), sizeof(cvColorConversion), sizeof(cvColorSpec));
    printf(" \"constants\": {\"CV_MAX_DIMS\": %d, \"CVCUDA_C_VERSION_NUMBER\": %d}}\n", CV_MAX_DIMS, CVCUDA_C_VERSION_NUMBER);
    return 0;
}
