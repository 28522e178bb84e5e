// The large synthetic nib: a graph of about `objectCount` objects in the shapes compiled nibs hold —
// controls with a title string, integer tags and flags, a bool, a double, an identifier as data,
// references to the previous control (as key views are linked) — under one inlined array.
import Interface

func syntheticGraph(objectCount: Int) -> NibGraph {
  var graph = NibGraph(rootClass: "NSObject")
  let classes = [
    "NSView", "NSButton", "NSTextField", "NSCustomObject", "NSMenuItem", "NSImageView", "NSBox", "NSSlider",
  ]
  // The root, the array, and two objects (a control and its title) per control.
  let controls = max(1, (objectCount - 2) / 2)
  var members: [Int] = []
  members.reserveCapacity(controls)
  graph.objects.reserveCapacity(2 * controls + 2)
  var previous = -1
  for index in 0 ..< controls {
    let title = graph.string("Control \(index) title")
    var entries: [NibGraph.Entry] = [
      .init("NSTitle", .object(title)),
      .init("NSTag", NibGraph.integer(index)),
      .init("NSvFlags", NibGraph.integer(0x100 + index % 64)),
      .init("NSEnabled", .bool(index % 3 != 0)),
      .init("NSValue", .float64(Double(index) * 0.5)),
      .init("NSIdentifier", .data(Array("id-\(index)".utf8))),
    ]
    if previous >= 0 { entries.append(.init("NSNextKeyView", .object(previous))) }
    let control = graph.add(classes[index % classes.count], entries)
    previous = control
    members.append(control)
  }
  let array = graph.collection("NSMutableArray", members)
  graph.append("NSSubviews", .object(array), to: graph.root)
  graph.append("NSVersion", NibGraph.integer(1), to: graph.root)
  return graph
}
