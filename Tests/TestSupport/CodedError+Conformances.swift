import StasisSystem
import Bundles
import Defaults
import Interface
import InterfaceBuilder
import InterfaceObjects
import KeyedArchive
import Lifecycle
import NibLoading
import PropertyLists
import Sandbox

// The error types tests pass to `expectError`. Each already has a `code`; the conformances live
// here, once, so that no test target declares its own.
extension AtomicFileError: CodedError {}
// `BundleError`, `LifecycleError` and `RestorationError` are `ModuleError`s of their domains.
extension ModuleError: CodedError {}
extension DefaultsError: CodedError {}
extension InterfaceError: CodedError {}
extension KeyedArchiveError: CodedError {}
extension PropertyListError: CodedError {}
extension SandboxError: CodedError {}
extension InterfaceBuilderError: CodedError {}
extension InterfaceObjectsError: CodedError {}
extension NibLoadingError: CodedError {}
