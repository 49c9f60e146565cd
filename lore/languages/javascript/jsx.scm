; JSX (JavaScript and TSX): an element with a component name is a call of the component.
(jsx_opening_element name: (_) @jsx)
(jsx_self_closing_element name: (_) @jsx)
