/* Writes the seed inputs of fuzz_tensor_wrap into the directory given (tests/fuzz/corpus/ is its output, committed):
 * valid and almost-valid CAIs, in the target's input format. Build: cc -Iinclude tests/fuzz/make_corpus.c. */
#include <cvcuda/cvcuda.h>

#include <stdio.h>
#include <string.h>

static void seed(const char *dir, const char *name, const char *layout, const cvArrayInterface *cai) {
    char path[512];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (f == NULL) return;
    const unsigned char length = layout == NULL ? 0xff : (unsigned char)strlen(layout);
    fwrite(&length, 1, 1, f);
    if (layout != NULL) fwrite(layout, 1, length, f);
    fwrite(cai, sizeof(*cai), 1, f);
    fclose(f);
}

static cvArrayInterface make(const char *typestr, int ndim, const int64_t *shape) {
    cvArrayInterface cai = CV_ARRAY_INTERFACE_INIT;
    cai.data = 0x7f0000100000ull;
    cai.ndim = ndim;
    for (int i = 0; i < ndim; ++i) cai.shape[i] = shape[i];
    strncpy(cai.typestr, typestr, sizeof(cai.typestr) - 1);
    cai.streamKind = CV_CAI_STREAM_NONE;
    return cai;
}

int main(int argc, char **argv) {
    if (argc != 2) return 2;
    const char *dir = argv[1];
    const int64_t hwc[] = {4, 5, 3}, nchw[] = {2, 3, 4, 5}, empty[] = {0, 7}, huge[] = {(int64_t)1 << 62, 4, 0};
    cvArrayInterface c = make("|u1", 3, hwc);
    seed(dir, "hwc_u8", "HWC", &c);
    c = make("<f4", 4, nchw);
    seed(dir, "nchw_f32", "NCHW", &c);
    c = make("<i2", 3, hwc);
    c.hasStrides = 1;
    c.strides[0] = -30; c.strides[1] = 6; c.strides[2] = 2;
    seed(dir, "negative_strides_i16", NULL, &c);
    c = make("<V2", 3, hwc);
    c.dtype = CV_DTYPE_BFLOAT16;
    c.readonly = 1;
    seed(dir, "bf16_readonly", "HWC", &c);
    c = make("<f8", 2, empty);
    c.data = 0;
    seed(dir, "empty_f64", "HW", &c);
    c = make("|u1", 3, huge);
    seed(dir, "empty_huge_u8", NULL, &c);
    c = make("<u8", 0, hwc);
    c.version = 2;
    c.streamKind = CV_CAI_STREAM_ABSENT;
    seed(dir, "scalar_v2", "", &c);
    c = make("|b1", 3, hwc);
    c.streamKind = CV_CAI_STREAM_INTEGER;
    c.stream = -1;
    seed(dir, "bool_stream_optout", "HWC", &c);
    return 0;
}
