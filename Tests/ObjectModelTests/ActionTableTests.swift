import ObjectModel
import Testing

@MainActor
@Suite("Action tables")
struct ActionTableTests {
  @Test func performsActionsByName() throws {
    let button = Button()
    #expect(button.responds(to: "press:"))
    #expect(!button.responds(to: "press"))
    try button.perform(action: "press:", sender: "menu")
    try button.perform(action: "press:", sender: nil)
    #expect(button.presses == ["press from menu", "press from nil"])
    #expect(Button.actionTable.selectors == ["fail", "press:"])
  }

  @Test func unknownActionsAreTypedErrors() {
    let view = View()
    do {
      try view.perform(action: "press:", sender: nil)
      Issue.record("no error")
    } catch let error as ObjectModelError {
      #expect(error.code == .unknownAction)
      #expect(error.description == "View: the object does not respond to the action press:")
    } catch {
      Issue.record("wrong error \(error)")
    }
  }

  @Test func anActionsOwnErrorIsRethrown() {
    #expect(throws: Button.Failure.self) { try Button().perform(action: "fail", sender: nil) }
  }

  @Test func mergedTablesLetSubclassesOverride() throws {
    let toggle = Toggle()
    try toggle.perform(action: "press:", sender: nil)
    #expect(toggle.presses == ["toggled"])
    #expect(toggle.responds(to: "fail"))
    #expect(throws: Button.Failure.self) { try toggle.perform(action: "fail", sender: nil) }
    #expect(Toggle.actionTable.selectors == ["fail", "press:"])
  }
}

/// A subclass whose `press:` replaces its superclass's.
@MainActor final class Toggle: Button {
  override class var actionTable: ActionTable { Toggle.actions }
  private static let actions = ActionTable(for: Toggle.self, inheriting: Button.actionTable) {
    $0.action("press:") { toggle, _ in toggle.presses.append("toggled") }
  }
}
