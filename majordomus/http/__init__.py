"""The HTTP surface: capability routes, the OpenAPI document, Swagger UI."""
