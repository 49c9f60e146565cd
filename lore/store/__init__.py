"""The only place with SQL: schema, connections, and read / write helpers per concern."""
