/* cvcuda._streambase: the base class of cvcuda.Stream in API mode, holding what runs at every Stream() and at every
 * Stream's end: the released Stream() handles kept for the next Stream() (the kept store) and the C calls that decide
 * whether one may be handed out again. bindings/python/cvcuda/_stream.py has the same rules in Python (its _KeptBase,
 * used in ABI mode and wherever this module was not built) and says what they are; this file does not repeat them.
 *
 * Why C: a Stream() that takes a kept handle back is one C call of the library (cvStreamPeekReusable, about 40 ns),
 * yet in Python it cost about 0.15 us more than that call, spent in the interpreter's __init__ and __del__ frames
 * (bench/cffi_modes.py). Here Stream() is tp_init (tp_new only allocates, so a subclass's __init__ calls it as it
 * calls the Python base's) and the end is tp_dealloc, with no Python frame. Stream() on the current device that finds
 * nothing kept calls cvStreamCreate from here too; Stream(device) and the process's first Stream() (which decides
 * whether handles are kept) go to Python (bind()'s `make`).
 *
 * The library's functions are bound by address at import (bind(), from _stream.py: ffi.addressof of the API-mode
 * module's lib), so this module links nothing and a test can bind fakes (cffi callbacks). Everything here runs with
 * the GIL held, which guards the store, except cvStreamQueryReusable, cvStreamCreate and cvStreamRelease, which may
 * call CUDA and run with it released, as the API-mode cffi wrappers of those functions do (bindings/python/gen_ffi.py).
 * The store is the process's (one per process, as the library's pool): the module refuses to load in a
 * subinterpreter, and its initialisation forgets what an earlier, finalised interpreter left. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#include <cvcuda/stream.h>

typedef cvStatus (*StreamQuestion)(cvStream); /* cvStreamPeekReusable, cvStreamQueryReusable */
typedef void (*StreamRelease)(cvStream);     /* cvStreamRelease */
typedef cvStatus (*StreamCreate)(cvStream *); /* cvStreamCreate */

/* One kept handle: the cffi cdata Python passes to the library (owned reference) and its value. */
typedef struct {
    PyObject *cdata;
    cvStream handle;
} Kept;

enum { kKeptCapacity = 8 }; /* the most bind()'s `most` may ask for */

typedef struct {
    StreamQuestion peek, query;
    StreamRelease release;
    StreamCreate create;
    PyObject *wrap;        /* wrap(value): the cvStream cdata of a handle's value (ffi.cast) */
    PyObject *make;        /* make(stream, device): gives `stream` a handle in Python (_stream._create_into) */
    PyObject *raise_error; /* raise_error(status): raises the exception of a cvStatus (never returns) */
    int most;              /* how many handles the store keeps */
    int allowed;           /* -1 not yet decided, 0 nothing is kept (several devices), 1 released handles are kept */
    int count;
    Kept kept[kKeptCapacity]; /* newest last */
} Store;

static Store store;

typedef struct {
    PyObject_HEAD
    PyObject *cv;      /* _cv: the cvStream cdata operators are given */
    PyObject *release; /* _release: the cdata released (or kept) at the end; NULL where _cv releases itself */
    cvStream handle;   /* release's value */
} StreamBase;

static PyTypeObject StreamBaseType;

static PyObject *new_reference(PyObject *object) {
    Py_INCREF(object);
    return object;
}

/* Gives one handle back to the library, the GIL released; an exception being raised is kept across the call (a
 * bound fake is Python code). Takes over the reference to `cdata` (may be NULL). */
static void release_handle(PyObject *cdata, cvStream handle) {
    const StreamRelease release = store.release; /* read with the GIL held: bind() may change it */
    if (release != NULL) {
        PyObject *type, *value, *traceback;
        PyErr_Fetch(&type, &value, &traceback);
        Py_BEGIN_ALLOW_THREADS
        release(handle);
        Py_END_ALLOW_THREADS
        PyErr_Restore(type, value, traceback);
    }
    Py_XDECREF(cdata);
}

static int raise_status(cvStatus status) {
    PyObject *result = PyObject_CallFunction(store.raise_error, "i", (int)status);
    Py_XDECREF(result);
    if (!PyErr_Occurred()) PyErr_Format(PyExc_SystemError, "cvcuda._streambase: status %d raised nothing", (int)status);
    return -1;
}

/* Takes over the reference to `cdata`. A stream that owns a handle already keeps it and the new one goes back (an
 * __init__ of the same object that ran while this one's create had the GIL released). */
static void own(StreamBase *self, PyObject *cdata, cvStream handle) {
    if (self->release != NULL) {
        release_handle(cdata, handle);
        return;
    }
    Py_XSETREF(self->cv, new_reference(cdata));
    self->release = cdata;
    self->handle = handle;
}

/* Gives `self`, which holds no handle, one: a kept handle the library says may be handed out, else a new one from the
 * C pool (cvStreamCreate here, or Python's make for another device and the first Stream()). 0, or -1 with an
 * exception set. */
static int setup(StreamBase *self, PyObject *device) {
    if (store.make == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "cvcuda._streambase: bind() was not called");
        return -1;
    }
    if (device == Py_None && store.allowed == 1 && store.count > 0) {
        const Kept kept = store.kept[--store.count];
        cvStatus status = store.peek(kept.handle);
        if (status == CV_NOT_READY) { /* not known idle: only CUDA can tell */
            const StreamQuestion query = store.query;
            Py_BEGIN_ALLOW_THREADS
            status = query(kept.handle);
            Py_END_ALLOW_THREADS
        }
        if (status == CV_SUCCESS) {
            own(self, kept.cdata, kept.handle);
            return 0;
        }
        release_handle(kept.cdata, kept.handle); /* held elsewhere or busy: the C pool decides from here */
        if (status != CV_NOT_READY) return raise_status(status);
    }
    if (device != Py_None || store.allowed < 0) { /* another device, or the first Stream(), which decides `allowed` */
        PyObject *result = PyObject_CallFunctionObjArgs(store.make, (PyObject *)self, device, NULL);
        Py_XDECREF(result);
        return result == NULL ? -1 : 0;
    }
    cvStream handle = NULL;
    cvStatus status;
    const StreamCreate create = store.create;
    Py_BEGIN_ALLOW_THREADS
    status = create(&handle);
    Py_END_ALLOW_THREADS
    if (status != CV_SUCCESS) return raise_status(status);
    PyObject *cdata = NULL;
    PyObject *value = PyLong_FromVoidPtr((void *)handle);
    if (value != NULL) {
        cdata = PyObject_CallOneArg(store.wrap, value);
        Py_DECREF(value);
    }
    if (cdata == NULL) {
        release_handle(NULL, handle);
        return -1;
    }
    own(self, cdata, handle);
    return 0;
}

static int parse_device(PyObject *args, PyObject *kwargs, PyObject **device) {
    static char *names[] = {"device", NULL};
    *device = Py_None;
    if (PyTuple_GET_SIZE(args) == 0 && (kwargs == NULL || PyDict_GET_SIZE(kwargs) == 0)) return 0;
    return PyArg_ParseTupleAndKeywords(args, kwargs, "|O:Stream", names, device) ? 0 : -1;
}

/* Stream(), after tp_new (PyType_GenericNew) allocated the object: a subclass's __init__ calls this one as well. */
static int stream_init(PyObject *object, PyObject *args, PyObject *kwargs) {
    StreamBase *self = (StreamBase *)object;
    PyObject *device;
    if (parse_device(args, kwargs, &device) < 0) return -1;
    if (self->cv != NULL || self->release != NULL) return 0; /* __init__ again: the stream keeps its handle */
    return setup(self, device);
}

static void stream_dealloc(PyObject *object) {
    StreamBase *self = (StreamBase *)object;
    PyObject_GC_UnTrack(object);
    if (self->release != NULL) {
        if (store.allowed == 1 && store.count < store.most && store.release != NULL) {
            store.kept[store.count].cdata = self->release;
            store.kept[store.count].handle = self->handle;
            store.count++;
        } else {
            release_handle(self->release, self->handle);
        }
        self->release = NULL;
    }
    Py_CLEAR(self->cv);
    Py_TYPE(object)->tp_free(object);
}

static int stream_traverse(PyObject *object, visitproc visit, void *arg) {
    StreamBase *self = (StreamBase *)object;
    Py_VISIT(self->cv);
    Py_VISIT(self->release);
    return 0;
}

static int stream_clear(PyObject *object) { /* `release` stays: the handle goes at the end, as always */
    Py_CLEAR(((StreamBase *)object)->cv);
    return 0;
}

static PyObject *stream_own(PyObject *object, PyObject *args) {
    StreamBase *self = (StreamBase *)object;
    PyObject *cdata;
    unsigned long long value;
    if (!PyArg_ParseTuple(args, "OK:_own", &cdata, &value)) return NULL;
    if (store.release == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "cvcuda._streambase: bind() was not called");
        return NULL;
    }
    if (self->release != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "cvcuda._streambase: _own() on a stream that owns a handle already");
        return NULL;
    }
    own(self, new_reference(cdata), (cvStream)(uintptr_t)value);
    Py_RETURN_NONE;
}

static PyObject *stream_get_release(PyObject *object, void *closure) {
    (void)closure;
    PyObject *release = ((StreamBase *)object)->release;
    return new_reference(release != NULL ? release : Py_None);
}

static PyMethodDef stream_methods[] = {
    {"_own", stream_own, METH_VARARGS,
     "_own(cdata, value): this Stream() owns the handle `cdata` (a cvStream of value `value`), released or kept at "
     "its end."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef stream_members[] = {
    {"_cv", T_OBJECT_EX, offsetof(StreamBase, cv), 0, "The cvStream cdata operators are given."},
    {NULL, 0, 0, 0, NULL},
};

static PyGetSetDef stream_getset[] = {
    {"_release", stream_get_release, NULL,
     "The cvStream cdata released or kept at the end (Stream() only), else None.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject StreamBaseType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "cvcuda._streambase.StreamBase",
    .tp_basicsize = sizeof(StreamBase),
    .tp_dealloc = stream_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    /* The first line is the signature inspect.signature(cvcuda.Stream) reads (its __text_signature__). */
    .tp_doc = "StreamBase(device=None)\n--\n\n"
              "The base of cvcuda.Stream in API mode: Stream() and the end of a Stream (see cvcuda.Stream).",
    .tp_traverse = stream_traverse,
    .tp_clear = stream_clear,
    .tp_methods = stream_methods,
    .tp_members = stream_members,
    .tp_getset = stream_getset,
    .tp_init = stream_init,
    .tp_new = PyType_GenericNew,
};

static int main_interpreter(void) {
    if (PyInterpreterState_Get() == PyInterpreterState_Main()) return 1;
    PyErr_SetString(PyExc_ImportError, "cvcuda._streambase: the kept store is the process's; it is used from the main "
                                       "interpreter only (CVCUDA_C_FFI=abi uses the Python base)");
    return 0;
}

static int address(PyObject *value, const char *name, uintptr_t *out) {
    unsigned long long bits = PyLong_AsUnsignedLongLong(value);
    if (bits == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    if (bits == 0) {
        PyErr_Format(PyExc_ValueError, "cvcuda._streambase.bind: %s is NULL", name);
        return -1;
    }
    *out = (uintptr_t)bits;
    return 0;
}

static PyObject *module_bind(PyObject *module, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"peek", "query", "release", "create", "wrap", "make", "raise_error", "most", NULL};
    PyObject *peek, *query, *release, *create, *wrap, *make, *raise_error;
    int most;
    uintptr_t addresses[4]; /* integers, not object pointers: C converts those to function pointers */
    (void)module;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOOOOOi:bind", names, &peek, &query, &release, &create, &wrap,
                                     &make, &raise_error, &most))
        return NULL;
    if (!main_interpreter()) return NULL; /* a subinterpreter may share this module's state without its PyInit */
    if (address(peek, "peek", &addresses[0]) || address(query, "query", &addresses[1]) ||
        address(release, "release", &addresses[2]) || address(create, "create", &addresses[3]))
        return NULL;
    if (!PyCallable_Check(wrap) || !PyCallable_Check(make) || !PyCallable_Check(raise_error)) {
        PyErr_SetString(PyExc_TypeError, "cvcuda._streambase.bind: wrap, make and raise_error must be callable");
        return NULL;
    }
    if (most < 0 || most > kKeptCapacity) {
        PyErr_Format(PyExc_ValueError, "cvcuda._streambase.bind: most=%d is not in [0, %d]", most, kKeptCapacity);
        return NULL;
    }
    if (store.count > most) {
        PyErr_Format(PyExc_RuntimeError, "cvcuda._streambase.bind: %d handles are kept, more than most=%d",
                     store.count, most);
        return NULL;
    }
    store.peek = (StreamQuestion)addresses[0];
    store.query = (StreamQuestion)addresses[1];
    store.release = (StreamRelease)addresses[2];
    store.create = (StreamCreate)addresses[3];
    Py_XSETREF(store.wrap, new_reference(wrap));
    Py_XSETREF(store.make, new_reference(make));
    Py_XSETREF(store.raise_error, new_reference(raise_error));
    store.most = most;
    Py_RETURN_NONE;
}

static PyObject *module_blank(PyObject *module, PyObject *cls) {
    (void)module;
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, &StreamBaseType)) {
        PyErr_SetString(PyExc_TypeError, "cvcuda._streambase.blank: expected a subclass of StreamBase");
        return NULL;
    }
    return ((PyTypeObject *)cls)->tp_alloc((PyTypeObject *)cls, 0);
}

static PyObject *module_kept(PyObject *module, PyObject *unused) {
    (void)module;
    (void)unused;
    PyObject *list = PyList_New(store.count);
    if (list == NULL) return NULL;
    for (int i = 0; i < store.count; i++) PyList_SET_ITEM(list, i, new_reference(store.kept[i].cdata));
    return list;
}

static PyObject *module_keep(PyObject *module, PyObject *args) {
    PyObject *cdata;
    unsigned long long value;
    (void)module;
    if (!PyArg_ParseTuple(args, "OK:keep", &cdata, &value)) return NULL;
    if (store.count >= store.most) {
        PyErr_Format(PyExc_RuntimeError, "cvcuda._streambase.keep: the store keeps %d handles already", store.count);
        return NULL;
    }
    store.kept[store.count].cdata = new_reference(cdata);
    store.kept[store.count].handle = (cvStream)(uintptr_t)value;
    store.count++;
    Py_RETURN_NONE;
}

static PyObject *module_release_kept(PyObject *module, PyObject *unused) {
    (void)module;
    (void)unused;
    while (store.count > 0) { /* one at a time: a bound fake may run Python code that changes the store */
        const Kept kept = store.kept[--store.count];
        release_handle(kept.cdata, kept.handle);
    }
    Py_RETURN_NONE;
}

static PyObject *module_allowed(PyObject *module, PyObject *unused) {
    (void)module;
    (void)unused;
    return new_reference(store.allowed < 0 ? Py_None : store.allowed ? Py_True : Py_False);
}

static PyObject *module_allow(PyObject *module, PyObject *value) {
    (void)module;
    if (value == Py_None) {
        store.allowed = -1;
    } else {
        const int truth = PyObject_IsTrue(value);
        if (truth < 0) return NULL;
        store.allowed = truth;
    }
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"bind", (PyCFunction)(void (*)(void))module_bind, METH_VARARGS | METH_KEYWORDS,
     "bind(peek, query, release, create, wrap, make, raise_error, most): the C functions (addresses of "
     "cvStreamPeekReusable, cvStreamQueryReusable, cvStreamRelease and cvStreamCreate, or fakes of their types), the "
     "Python helpers and the store's size."},
    {"blank", module_blank, METH_O, "blank(cls): a new `cls` object that holds no handle yet (no kept handle taken)."},
    {"kept", module_kept, METH_NOARGS, "The kept handles' cdata, oldest first."},
    {"keep", module_keep, METH_VARARGS, "keep(cdata, value): keeps a handle (tests and benchmarks)."},
    {"release_kept", module_release_kept, METH_NOARGS, "Releases every kept handle to the library."},
    {"allowed", module_allowed, METH_NOARGS, "None (not yet decided), True or False: whether handles are kept."},
    {"allow", module_allow, METH_O, "allow(flag): sets allowed() (None: not yet decided)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "cvcuda._streambase", "cvcuda.Stream's base class in API mode (see _streambase.c).", -1,
    module_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__streambase(void) {
    if (!main_interpreter()) return NULL;
    /* Forget what an earlier interpreter of this process left (its objects are gone with it). */
    const Store empty = {NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, -1, 0, {{NULL, NULL}}};
    store = empty;
    if (PyType_Ready(&StreamBaseType) < 0) return NULL;
    PyObject *module = PyModule_Create(&module_def);
    if (module == NULL) return NULL;
    Py_INCREF(&StreamBaseType);
    if (PyModule_AddObject(module, "StreamBase", (PyObject *)&StreamBaseType) < 0) {
        Py_DECREF(&StreamBaseType);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
