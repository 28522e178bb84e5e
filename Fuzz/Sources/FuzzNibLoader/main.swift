// FuzzNibLoader: reads each input as a NIBArchive (small limits) and instantiates it with the nib
// loader in lenient and in strict mode, external objects stood in for as the loader names them.
// A NibLoadingError is fine; a crash, a hang or any other error is not. Every object made is then
// walked as an app would (window, responder chain, tag search, subviews, controller views), so that
// hostile graphs (a view that is its own ancestor, menus in cycles) cannot hang those walks.
import FuzzSupport
import Interface
import InterfaceObjects
import NibLoading
import ObjectModel

let registry = ClassRegistry.interfaceObjects

// The loader and the objects it makes are the main actor's, as UIKit's are; libFuzzer calls the
// target on the main thread (each forked job's too), so the target asserts that and runs there.
@MainActor func load(_ nib: Nib, strict: Bool) {
  var options = Nib.Options(classes: registry, isStrict: strict)
  for _ in 0..<8 {
    do {
      let loaded = try nib.load(owner: GenericObject(className: "Owner"), options: options)
      for object in loaded.objects { walk(object) }
      return
    } catch {
      guard error.code == .missingExternalObject, let name = error.key, options.externalObjects[name] == nil else { return }
      options.externalObjects[name] = GenericObject(className: "External")
    }
  }
}

@MainActor func walk(_ object: AnyObject) {
  if let responder = object as? Responder { _ = responder.responderChain.count }
  if let view = object as? View {
    _ = view.window
    _ = view.viewWithTag(Int.min)
    _ = view.bounds
    _ = view.center
  }
  if let controller = object as? ViewController {
    _ = controller.viewIfLoaded
    _ = controller.navigationController
    _ = controller.tabBarController
  }
  if let menu = object as? Menu { _ = menu.items.count }
  if let control = object as? Control { _ = control.actions(for: ControlEvents(rawValue: -1)) }
}

@c(LLVMFuzzerTestOneInput)
public func fuzzNibLoader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let data else { return 0 }
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let limits = NIBArchive.Limits(maximumByteCount: 1 << 20, maximumEntryCount: 1 << 16)
  guard let archive = try? NIBArchive(bytes: bytes, limits: limits) else { return 0 }
  let graph = NibGraph(archive)
  MainActor.assumeIsolated {
    let nib = Nib(graph: graph, name: "fuzz.nib")
    load(nib, strict: false)
    load(nib, strict: true)
  }
  return 0
}

runLibFuzzer(fuzzNibLoader)
