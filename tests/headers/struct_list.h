/* Every public struct/union type of the AscendCL headers (scripts/gen_api/api.json, "structs"), as
 * an X-macro so C and C++ translation units can list their sizes and alignments the same way. */
#ifndef OPENACL_TESTS_HEADERS_STRUCT_LIST_H_
#define OPENACL_TESTS_HEADERS_STRUCT_LIST_H_

#define OPENACL_PUBLIC_STRUCTS(X)  \
  X(aclrtMemManagedLocation)       \
  X(aclrtMallocAttrValue)          \
  X(aclrtMallocAttribute)          \
  X(aclrtMallocConfig)             \
  X(aclrtServerPid)                \
  X(aclrtStreamConfigHandle)       \
  X(aclrtUtilizationInfo)          \
  X(aclrtMemLocation)              \
  X(aclrtPtrAttributes)            \
  X(aclrtMemUsageInfo)             \
  X(aclrtMemFabricHandle)          \
  X(aclrtPhysicalMemProp)          \
  X(aclrtMemUceInfo)               \
  X(aclrtMemUceInfoArray)          \
  X(aclrtErrorInfoDetail)          \
  X(aclrtErrorInfo)                \
  X(aclrtBinaryLoadOptionValue)    \
  X(aclrtBinaryLoadOption)         \
  X(aclrtBinaryLoadOptions)        \
  X(dim3)                          \
  X(aclrtTimeoutUs)                \
  X(aclrtLaunchKernelAttrValue)    \
  X(aclrtLaunchKernelAttr)         \
  X(aclrtLaunchKernelCfg)          \
  X(aclrtStreamAttrValue)          \
  X(aclmdlRIKernelTaskParams)      \
  X(aclmdlRIEventRecordTaskParams) \
  X(aclmdlRIEventWaitTaskParams)   \
  X(aclmdlRIEventResetTaskParams)  \
  X(aclmdlRIValueWriteTaskParams)  \
  X(aclmdlRIValueWaitTaskParams)   \
  X(aclmdlRITaskParams)            \
  X(aclrtBarrierCmoInfo)           \
  X(aclrtBarrierTaskInfo)          \
  X(aclrtMemcpyBatchAttr)          \
  X(aclrtPlaceHolderInfo)          \
  X(aclrtRandomParaInfo)           \
  X(aclrtDropoutBitmaskInfo)       \
  X(aclrtUniformDisInfo)           \
  X(aclrtNormalDisInfo)            \
  X(aclrtRandomNumFuncParaInfo)    \
  X(aclrtRandomNumTaskInfo)        \
  X(aclrtRandomTaskUpdateAttr)     \
  X(aclrtAicAivTaskUpdateAttr)     \
  X(aclrtUpdateTaskAttrVal)        \
  X(aclrtTaskUpdateInfo)           \
  X(aclrtSnapShotBackupArgs)       \
  X(aclrtSnapShotRestoreArgs)      \
  X(aclrtUuid)                     \
  X(aclrtCntNotifyRecordInfo)      \
  X(aclrtCntNotifyWaitInfo)        \
  X(aclrtMemAccessDesc)            \
  X(aclCANNPackageVersion)         \
  X(aclrtIpcEventHandle)           \
  X(aclmdlRICondTaskParams)        \
  X(struct MemAttrMapping)         \
  X(acldumpChunk)                  \
  X(acldumpTensorInfo)             \
  X(aclmdlAttrValue_t)             \
  X(aclmdlIODims)                  \
  X(aclmdlIODimsRange)             \
  X(aclAippDims)                   \
  X(aclmdlBatch)                   \
  X(aclmdlHW)                      \
  X(aclAippInfo)                   \
  X(aclmdlExeOMDesc)

#endif /* OPENACL_TESTS_HEADERS_STRUCT_LIST_H_ */
