"""The table screen: layout, panels and the frame renderer, the controller and the loop.

`render(state, ui, surface)` draws from the public state JSON and a small UI state only;
`controller.Controller` turns inputs into session commands; `app` runs the pygame loop.
"""
