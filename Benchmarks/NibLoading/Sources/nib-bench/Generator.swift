// The generated macOS xib: a window whose content view holds columns of panels (a custom view
// class), each with a label, a text field, push and check buttons, a slider and views nested one
// to three deep; a main menu of submenus; outlets from File's Owner, the window's delegate and
// first responder, a key-view loop through the text fields; actions to File's Owner and to the
// First Responder; runtime attributes of every type the compiler takes (string, boolean, integer,
// real and bool numbers, dotted key paths, keys of the custom class). Seeded and deterministic:
// the same seed and group count give the same bytes.

/// SplitMix64: small, seeded, the same on every platform.
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// One object of the generated nib as the benchmark knows it, for the checks and for the keyed
/// archive of the same shape (MirrorGraph.swift): its kind, tag, title and frame, children,
/// the cell a control has, and the action it sends.
final class Spec {
  enum Kind: String {
    case window = "NSWindow", view = "NSView", panel = "BenchPanel", label = "NSTextField(label)"
    case field = "NSTextField", pushButton = "NSButton", checkButton = "NSButton(check)", slider = "NSSlider"
    case menu = "NSMenu", menuItem = "NSMenuItem", constraint = "NSLayoutConstraint"
    case buttonCell = "NSButtonCell", textFieldCell = "NSTextFieldCell", sliderCell = "NSSliderCell"
  }
  let kind: Kind
  let id: String
  var title: String?
  var frame: (x: Int, y: Int, width: Int, height: Int)?
  var tag = 0
  var children: [Spec] = []
  var cell: Spec?
  /// The action (`save:`) and whether it goes to File's Owner (else to the First Responder).
  var action: (selector: String, toOwner: Bool)?
  init(_ kind: Kind, id: String) {
    self.kind = kind
    self.id = id
  }

  /// This object and everything under it (cells included), depth first.
  func forEach(_ body: (Spec) -> Void) {
    body(self)
    if let cell { body(cell) }
    for child in children { child.forEach(body) }
  }
}

/// What the generator wrote and what a correct load of it must show.
struct GeneratedNib {
  var xml: String
  var groups: Int
  var window: Spec
  var menu: Spec
  /// Objects the generator wrote (window, views, controls, cells, constraints, menus, items).
  var specCount: Int
  /// Outlet, action and runtime-attribute connections written.
  var outlets: Int
  var actions: Int
  var attributes: Int
  /// What the runtime attributes and outlets must have done, checked after every load.
  var expectedTagSum: Int
  var expectedToolTips: Int
  var expectedCaptions: Int
  var expectedAccentSum: Int
  var expectedKeyLoop: Int
  var fieldTitles: (first: String, last: String)
}

enum NibGenerator {
  static let ownerSelectors = ["save:", "revert:", "apply:"]
  static let responderSelectors = ["performClose:", "toggleSidebar:", "copy:", "paste:", "selectAll:", "undo:"]
  static let words = [
    "Name", "Volume", "Status", "Address", "Speed", "Limit", "Folder", "Port", "Filter", "Delay", "Queue", "Ratio",
    "Größe", "Priorité", "名前", "Tempo",
  ]

  /// The xib with `groups` panels and `menus` × `itemsPerMenu` menu items; `denseAttributes` gives
  /// every control runtime attributes (about 0.8 per object) instead of one control per panel
  /// (about 0.2 per object, still every type).
  ///
  /// With `storyboard`, the same panels make the view of a storyboard's view controller
  /// (`BenchViewController`, File's Owner's outlets and actions) whose window controller is the
  /// initial controller; no menu.
  static func generate(
    groups: Int, menus: Int, itemsPerMenu: Int, seed: UInt64, denseAttributes: Bool, storyboard: Bool = false
  ) -> GeneratedNib {
    var random = SeededGenerator(seed: seed)
    var nextID = 0
    func newID() -> String {
      nextID += 1
      return "o\(nextID)"
    }
    func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
    func number(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(random.next() % UInt64(range.count)) }

    var outlets = 0, actions = 0, attributes = 0
    // File's Owner and the First Responder: the xib's placeholders, or the storyboard's view
    // controller and its scene's First Responder.
    let ownerID = storyboard ? "vc1" : "-2"
    let responderID = storyboard ? "fr2" : "-1"
    var tagSum = 0, toolTips = 0, captions = 0, accentSum = 0
    var xml = ""
    xml.reserveCapacity(groups * 9000 + menus * itemsPerMenu * 400 + 4096)
    func line(_ depth: Int, _ text: String) {
      xml += String(repeating: "    ", count: depth)
      xml += text
      xml += "\n"
    }
    func escaped(_ text: String) -> String {
      var out = ""
      for character in text {
        switch character {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        default: out.append(character)
        }
      }
      return out
    }
    func rect(_ depth: Int, _ spec: Spec) {
      guard let frame = spec.frame else { return }
      line(depth, "<rect key=\"frame\" x=\"\(frame.x)\" y=\"\(frame.y)\" width=\"\(frame.width)\" height=\"\(frame.height)\"/>")
    }
    /// `<userDefinedRuntimeAttributes>` of (type, keyPath, value XML or attribute).
    func runtimeAttributes(_ depth: Int, _ list: [(type: String, keyPath: String, value: String)]) {
      guard !list.isEmpty else { return }
      line(depth, "<userDefinedRuntimeAttributes>")
      for attribute in list {
        switch attribute.type {
        case "string", "boolean":
          line(depth + 1, "<userDefinedRuntimeAttribute type=\"\(attribute.type)\" keyPath=\"\(attribute.keyPath)\" value=\"\(escaped(attribute.value))\"/>")
        default:
          line(depth + 1, "<userDefinedRuntimeAttribute type=\"number\" keyPath=\"\(attribute.keyPath)\">")
          line(depth + 2, attribute.value)
          line(depth + 1, "</userDefinedRuntimeAttribute>")
        }
        attributes += 1
      }
      line(depth, "</userDefinedRuntimeAttributes>")
    }
    func connections(_ depth: Int, _ list: [String]) {
      guard !list.isEmpty else { return }
      line(depth, "<connections>")
      for connection in list { line(depth + 1, connection) }
      line(depth, "</connections>")
    }
    func actionXML(_ spec: Spec) -> [String] {
      guard let action = spec.action else { return [] }
      actions += 1
      return ["<action selector=\"\(action.selector)\" target=\"\(action.toOwner ? ownerID : responderID)\" id=\"\(newID())\"/>"]
    }
    func outletXML(_ property: String, _ destination: String) -> String {
      outlets += 1
      return "<outlet property=\"\(property)\" destination=\"\(destination)\" id=\"\(newID())\"/>"
    }

    // MARK: The model

    let window = Spec(.window, id: newID())
    window.title = "Generated"
    let content = Spec(.view, id: newID())
    content.frame = (0, 0, 1600, 1000)
    window.children = [content]
    let columnCount = max(1, min(8, groups / 6))
    var columns: [Spec] = []
    for column in 0..<columnCount {
      let spec = Spec(.view, id: newID())
      spec.frame = (column * 200, 0, 200, 1000)
      columns.append(spec)
    }
    content.children = columns
    var panels: [Spec] = []
    var fields: [Spec] = []
    var labels: [Spec] = []
    var sliders: [Spec] = []
    var pushButtons: [Spec] = []
    for group in 0..<groups {
      let panel = Spec(.panel, id: newID())
      panel.frame = (0, group / columnCount * 120, 200, 120)
      panel.tag = group
      let word = pick(words)
      let label = Spec(.label, id: newID())
      label.frame = (10, 96, 180, 17)
      label.title = "\(word) \(group):"
      label.cell = Spec(.textFieldCell, id: newID())
      let field = Spec(.field, id: newID())
      field.frame = (10, 70, 180, 22)
      field.title = "\(word.lowercased())-\(number(0...9999))"
      field.cell = Spec(.textFieldCell, id: newID())
      field.action = ("textChanged:", true)
      let push = Spec(.pushButton, id: newID())
      push.frame = (10, 36, 90, 32)
      push.title = pick(["OK", "Apply", "Revert", "Save", "Sichern", "Appliquer"])
      push.cell = Spec(.buttonCell, id: newID())
      push.action = random.next() % 3 == 0 ? (pick(responderSelectors), false) : (pick(ownerSelectors), true)
      push.children = [Spec(.constraint, id: newID())]
      let check = Spec(.checkButton, id: newID())
      check.frame = (104, 42, 90, 18)
      check.title = "Enable \(word)"
      check.cell = Spec(.buttonCell, id: newID())
      check.action = (pick(responderSelectors), false)
      let slider = Spec(.slider, id: newID())
      slider.frame = (10, 10, 120, 21)
      slider.cell = Spec(.sliderCell, id: newID())
      slider.action = ("sliderChanged:", true)
      // Views nested one to three deep, a small button at the bottom.
      let depth = number(1...3)
      let nestedTop = Spec(.view, id: newID())
      nestedTop.frame = (136, 4, 60, 32)
      var innermost = nestedTop
      for _ in 1..<depth {
        let inner = Spec(.view, id: newID())
        inner.frame = (2, 2, 56, 28)
        innermost.children = [inner]
        innermost = inner
      }
      let small = Spec(.pushButton, id: newID())
      small.frame = (0, 0, 40, 24)
      small.title = "…"
      small.cell = Spec(.buttonCell, id: newID())
      small.action = (pick(responderSelectors), false)
      innermost.children = [small]
      panel.children = [label, field, push, check, slider, nestedTop]
      columns[group % columnCount].children.append(panel)
      panels.append(panel)
      fields.append(field)
      labels.append(label)
      sliders.append(slider)
      pushButtons.append(push)
    }

    let menu = Spec(.menu, id: newID())
    menu.title = "Main Menu"
    for m in 0..<menus {
      let top = Spec(.menuItem, id: newID())
      top.title = pick(words) + " \(m)"
      let submenu = Spec(.menu, id: newID())
      submenu.title = top.title
      for i in 0..<itemsPerMenu {
        let item = Spec(.menuItem, id: newID())
        item.title = i % 7 == 6 ? nil : "\(pick(words)) \(m).\(i)…"
        if item.title != nil {
          item.action = random.next() % 2 == 0 ? (pick(responderSelectors), false) : (pick(["newDocument:", "openDocument:", "showHelp:"]), true)
          item.tag = i % 4 == 0 ? m * 100 + i : 0
        }
        submenu.children.append(item)
      }
      top.children = [submenu]
      menu.children.append(top)
    }

    // MARK: The XML

    func ownerOutlets(includingWindow: Bool) -> [String] {
      var list = includingWindow ? [outletXML("window", window.id)] : []
      if let label = labels.first { list.append(outletXML("statusLabel", label.id)) }
      if let field = fields.first { list.append(outletXML("nameField", field.id)) }
      if let field = fields.last { list.append(outletXML("lastField", field.id)) }
      if let slider = sliders.first { list.append(outletXML("volumeSlider", slider.id)) }
      if let button = pushButtons.first { list.append(outletXML("okButton", button.id)) }
      if let panel = panels.first { list.append(outletXML("firstPanel", panel.id)) }
      return list
    }
    func windowElement(_ depth: Int, key: String) {
      line(depth, "<window\(key) title=\"\(window.title!)\" allowsToolTipsWhenApplicationIsInactive=\"NO\" autorecalculatesKeyViewLoop=\"NO\" releasedWhenClosed=\"NO\" visibleAtLaunch=\"NO\" animationBehavior=\"default\" id=\"\(window.id)\">")
      line(depth + 1, "<windowStyleMask key=\"styleMask\" titled=\"YES\" closable=\"YES\" miniaturizable=\"YES\" resizable=\"YES\"/>")
      line(depth + 1, "<rect key=\"contentRect\" x=\"196\" y=\"240\" width=\"1600\" height=\"1000\"/>")
      line(depth + 1, "<rect key=\"screenRect\" x=\"0.0\" y=\"0.0\" width=\"1728\" height=\"1079\"/>")
    }

    line(0, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>")
    if storyboard {
      line(0, "<document type=\"com.apple.InterfaceBuilder3.Cocoa.Storyboard.XIB\" version=\"3.0\" toolsVersion=\"22505\" targetRuntime=\"MacOSX.Cocoa\" propertyAccessControl=\"none\" initialViewController=\"wc1\">")
    } else {
      line(0, "<document type=\"com.apple.InterfaceBuilder3.Cocoa.XIB\" version=\"3.0\" toolsVersion=\"22505\" targetRuntime=\"MacOSX.Cocoa\" propertyAccessControl=\"none\">")
    }
    line(1, "<dependencies>")
    line(2, "<deployment identifier=\"macosx\"/>")
    line(2, "<plugIn identifier=\"com.apple.InterfaceBuilder.CocoaPlugin\" version=\"22505\"/>")
    line(1, "</dependencies>")
    if storyboard {
      line(1, "<scenes>")
      line(2, "<scene sceneID=\"scene-wc\">")
      line(3, "<objects>")
      line(4, "<windowController id=\"wc1\" sceneMemberID=\"viewController\">")
      windowElement(5, key: " key=\"window\"")
      line(5, "</window>")
      connections(5, ["<segue destination=\"vc1\" kind=\"relationship\" relationship=\"window.shadowedContentViewController\" id=\"\(newID())\"/>"])
      line(4, "</windowController>")
      line(4, "<customObject id=\"fr1\" userLabel=\"First Responder\" customClass=\"NSResponder\" sceneMemberID=\"firstResponder\"/>")
      line(3, "</objects>")
      line(2, "</scene>")
      line(2, "<scene sceneID=\"scene-vc\">")
      line(3, "<objects>")
      line(4, "<viewController id=\"vc1\" customClass=\"BenchViewController\" sceneMemberID=\"viewController\">")
      line(5, "<view key=\"view\" id=\"\(content.id)\">")
    } else {
      line(1, "<objects>")
      line(2, "<customObject id=\"-2\" userLabel=\"File's Owner\" customClass=\"BenchOwner\">")
      connections(3, ownerOutlets(includingWindow: true))
      line(2, "</customObject>")
      line(2, "<customObject id=\"-1\" userLabel=\"First Responder\" customClass=\"FirstResponder\"/>")
      line(2, "<customObject id=\"-3\" userLabel=\"Application\" customClass=\"NSObject\"/>")
      windowElement(2, key: "")
      line(3, "<view key=\"contentView\" id=\"\(content.id)\">")
    }
    rect(4, content)
    line(4, "<autoresizingMask key=\"autoresizingMask\"/>")
    line(4, "<subviews>")

    func emitControlCell(_ depth: Int, _ control: Spec) {
      guard let cell = control.cell else { return }
      switch control.kind {
      case .label:
        line(depth, "<textFieldCell key=\"cell\" lineBreakMode=\"clipping\" title=\"\(escaped(control.title ?? ""))\" id=\"\(cell.id)\">")
        line(depth + 1, "<font key=\"font\" metaFont=\"system\"/>")
        line(depth + 1, "<color key=\"textColor\" name=\"labelColor\" catalog=\"System\" colorSpace=\"catalog\"/>")
        line(depth + 1, "<color key=\"backgroundColor\" name=\"textBackgroundColor\" catalog=\"System\" colorSpace=\"catalog\"/>")
        line(depth, "</textFieldCell>")
      case .field:
        line(depth, "<textFieldCell key=\"cell\" scrollable=\"YES\" lineBreakMode=\"clipping\" selectable=\"YES\" editable=\"YES\" sendsActionOnEndEditing=\"YES\" borderStyle=\"bezel\" title=\"\(escaped(control.title ?? ""))\" drawsBackground=\"YES\" id=\"\(cell.id)\">")
        line(depth + 1, "<font key=\"font\" metaFont=\"system\"/>")
        line(depth + 1, "<color key=\"textColor\" name=\"controlTextColor\" catalog=\"System\" colorSpace=\"catalog\"/>")
        line(depth + 1, "<color key=\"backgroundColor\" name=\"textBackgroundColor\" catalog=\"System\" colorSpace=\"catalog\"/>")
        line(depth, "</textFieldCell>")
      case .pushButton:
        line(depth, "<buttonCell key=\"cell\" type=\"push\" title=\"\(escaped(control.title ?? ""))\" bezelStyle=\"rounded\" alignment=\"center\" borderStyle=\"border\" imageScaling=\"proportionallyDown\" inset=\"2\" id=\"\(cell.id)\">")
        line(depth + 1, "<behavior key=\"behavior\" pushIn=\"YES\" lightByBackground=\"YES\" lightByGray=\"YES\"/>")
        line(depth + 1, "<font key=\"font\" metaFont=\"system\"/>")
        line(depth, "</buttonCell>")
      case .checkButton:
        line(depth, "<buttonCell key=\"cell\" type=\"check\" title=\"\(escaped(control.title ?? ""))\" bezelStyle=\"regularSquare\" imagePosition=\"left\" inset=\"2\" id=\"\(cell.id)\">")
        line(depth + 1, "<behavior key=\"behavior\" changeContents=\"YES\" doesNotDimImage=\"YES\" lightByContents=\"YES\"/>")
        line(depth + 1, "<font key=\"font\" metaFont=\"system\"/>")
        line(depth, "</buttonCell>")
      case .slider:
        line(depth, "<sliderCell key=\"cell\" continuous=\"YES\" state=\"on\" alignment=\"left\" maxValue=\"100\" doubleValue=\"\(number(0...100))\" tickMarkPosition=\"above\" sliderType=\"linear\" id=\"\(cell.id)\"/>")
      default:
        break
      }
    }

    /// A view and everything under it, at XML depth `depth`; `index` is the panel's position
    /// for the key-view loop.
    func emit(_ spec: Spec, _ depth: Int, panelIndex: Int) {
      switch spec.kind {
      case .view, .panel:
        let custom = spec.kind == .panel ? " customClass=\"BenchPanel\"" : ""
        line(depth, "<customView id=\"\(spec.id)\"\(custom)>")
        rect(depth + 1, spec)
        line(depth + 1, "<autoresizingMask key=\"autoresizingMask\" flexibleMaxX=\"YES\" flexibleMinY=\"YES\"/>")
        if !spec.children.isEmpty {
          line(depth + 1, "<subviews>")
          for child in spec.children { emit(child, depth + 2, panelIndex: panelIndex) }
          line(depth + 1, "</subviews>")
        }
        if spec.kind == .panel {
          let accent = number(1...9)
          let caption = "Panel \(spec.tag) · \(pick(words))"
          accentSum += accent
          captions += 1
          var list: [(type: String, keyPath: String, value: String)] = [
            ("number", "accentLevel", "<integer key=\"value\" value=\"\(accent)\"/>"),
            ("string", "caption", caption),
          ]
          if denseAttributes {
            tagSum += spec.tag
            list += [
              ("number", "tag", "<integer key=\"value\" value=\"\(spec.tag)\"/>"),
              ("string", "identifier", "panel-\(spec.tag)"),
              ("boolean", "hidden", "NO"),
            ]
          }
          runtimeAttributes(depth + 1, list)
        }
        line(depth, "</customView>")
      case .label, .field, .pushButton, .checkButton, .slider:
        let element = spec.kind == .slider ? "slider" : spec.kind == .label || spec.kind == .field ? "textField" : "button"
        var opening = "<\(element)"
        if spec.kind == .label { opening += " horizontalHuggingPriority=\"251\"" }
        if spec.kind != .checkButton { opening += " verticalHuggingPriority=\"750\"" }
        if spec.kind == .pushButton && !spec.children.isEmpty { opening += " translatesAutoresizingMaskIntoConstraints=\"NO\"" }
        line(depth, opening + " id=\"\(spec.id)\">")
        rect(depth + 1, spec)
        if !(spec.kind == .pushButton && !spec.children.isEmpty) {
          line(depth + 1, "<autoresizingMask key=\"autoresizingMask\" flexibleMaxX=\"YES\" flexibleMinY=\"YES\"/>")
        }
        emitControlCell(depth + 1, spec)
        var list: [(type: String, keyPath: String, value: String)] = []
        // Dense: every control has runtime attributes. Typical: one control per panel, in turn,
        // so that each type and key-path shape still comes up.
        let turn = panelIndex % 6
        switch spec.kind {
        case .field:
          if denseAttributes {
            let tag = number(1...500)
            tagSum += tag
            toolTips += 1
            list = [
              ("string", "toolTip", "Type the \(spec.title ?? "") here"),
              ("number", "tag", "<integer key=\"value\" value=\"\(tag)\"/>"),
              ("number", "alphaValue", "<real key=\"value\" value=\"0.\(number(5...9))\"/>"),
              ("boolean", "enabled", "YES"),
              ("string", "cell.title", spec.title ?? ""),
            ]
          } else if turn == 0 {
            toolTips += 1
            list = [("string", "toolTip", "Type the \(spec.title ?? "") here")]
          } else if turn == 1 {
            list = [("string", "cell.title", spec.title ?? "")]
          } else if turn == 5 {
            list = [("boolean", "enabled", "YES")]
          }
        case .pushButton where !spec.children.isEmpty:
          if denseAttributes {
            list = [("string", "identifier", "button-\(panelIndex)"), ("number", "enabled", "<bool key=\"value\" value=\"YES\"/>")]
          } else if turn == 4 {
            list = [("number", "enabled", "<bool key=\"value\" value=\"YES\"/>")]
          }
        case .checkButton:
          if denseAttributes || turn == 3 {
            list = [("number", "state", "<integer key=\"value\" value=\"\(panelIndex % 2)\"/>")]
          }
        case .slider:
          if denseAttributes || turn == 2 {
            list = [("number", "doubleValue", "<real key=\"value\" value=\"\(number(0...100)).5\"/>")]
          }
        default:
          break
        }
        if spec.kind == .pushButton && !spec.children.isEmpty {
          line(depth + 1, "<constraints>")
          line(depth + 2, "<constraint firstAttribute=\"width\" relation=\"greaterThanOrEqual\" constant=\"90\" id=\"\(spec.children[0].id)\"/>")
          line(depth + 1, "</constraints>")
        }
        runtimeAttributes(depth + 1, list)
        var links = actionXML(spec)
        if spec.kind == .field, panelIndex + 1 < fields.count {
          links.append(outletXML("nextKeyView", fields[panelIndex + 1].id))
        }
        connections(depth + 1, links)
        line(depth, "</\(element)>")
      default:
        break
      }
    }

    for column in columns {
      line(5, "<customView id=\"\(column.id)\">")
      rect(6, column)
      line(6, "<autoresizingMask key=\"autoresizingMask\" flexibleMaxX=\"YES\" flexibleMinY=\"YES\"/>")
      line(6, "<subviews>")
      for panel in column.children { emit(panel, 7, panelIndex: panel.tag) }
      line(6, "</subviews>")
      line(5, "</customView>")
    }
    line(4, "</subviews>")
    line(3, "</view>")
    if storyboard {
      connections(5, ownerOutlets(includingWindow: false))
      line(4, "</viewController>")
      line(4, "<customObject id=\"fr2\" userLabel=\"First Responder\" customClass=\"NSResponder\" sceneMemberID=\"firstResponder\"/>")
      line(3, "</objects>")
      line(2, "</scene>")
      line(1, "</scenes>")
      line(0, "</document>")
      var specCount = 0
      content.forEach { _ in specCount += 1 }
      return GeneratedNib(
        xml: xml, groups: groups, window: window, menu: menu, specCount: specCount, outlets: outlets, actions: actions,
        attributes: attributes, expectedTagSum: tagSum, expectedToolTips: toolTips, expectedCaptions: captions,
        expectedAccentSum: accentSum, expectedKeyLoop: max(0, fields.count - 1),
        fieldTitles: (fields.first?.title ?? "", fields.last?.title ?? ""))
    }
    var windowLinks = [outletXML("delegate", "-2")]
    if let field = fields.first { windowLinks.append(outletXML("initialFirstResponder", field.id)) }
    connections(3, windowLinks)
    line(2, "</window>")

    line(2, "<menu title=\"\(menu.title!)\" systemMenu=\"main\" id=\"\(menu.id)\">")
    line(3, "<items>")
    for top in menu.children {
      let submenu = top.children[0]
      line(4, "<menuItem title=\"\(escaped(top.title ?? ""))\" id=\"\(top.id)\">")
      line(5, "<menu key=\"submenu\" title=\"\(escaped(submenu.title ?? ""))\" id=\"\(submenu.id)\">")
      line(6, "<items>")
      for item in submenu.children {
        guard let title = item.title else {
          line(7, "<menuItem isSeparatorItem=\"YES\" id=\"\(item.id)\"/>")
          continue
        }
        let key = item.tag != 0 ? " keyEquivalent=\"\(pick(["n", "o", "s", "w", "e"]))\"" : ""
        line(7, "<menuItem title=\"\(escaped(title))\"\(key) id=\"\(item.id)\">")
        if item.tag != 0 {
          tagSum += item.tag
          runtimeAttributes(8, [("number", "tag", "<integer key=\"value\" value=\"\(item.tag)\"/>")])
        }
        connections(8, actionXML(item))
        line(7, "</menuItem>")
      }
      line(6, "</items>")
      line(5, "</menu>")
      line(4, "</menuItem>")
    }
    line(3, "</items>")
    line(2, "</menu>")
    line(1, "</objects>")
    line(0, "</document>")

    var specCount = 0
    window.forEach { _ in specCount += 1 }
    menu.forEach { _ in specCount += 1 }
    return GeneratedNib(
      xml: xml, groups: groups, window: window, menu: menu, specCount: specCount, outlets: outlets, actions: actions,
      attributes: attributes, expectedTagSum: tagSum, expectedToolTips: toolTips, expectedCaptions: captions,
      expectedAccentSum: accentSum, expectedKeyLoop: max(0, fields.count - 1),
      fieldTitles: (fields.first?.title ?? "", fields.last?.title ?? ""))
  }
}
