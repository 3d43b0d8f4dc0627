"""The HTTP surface: capability routes, the OpenAPI document, Swagger UI.

Only `app.py` and `server.py` import FastAPI / uvicorn, and only `majordomus serve` imports
them; the OpenAPI builder, the bindings, the guards and the pages are pure and import neither,
so `majordomus generate` and `capabilities validate` stay light.
"""
