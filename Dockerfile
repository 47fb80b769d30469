# oi-local server image. Builds OFFLINE: everything is installed from a local wheelhouse.
#
# 1. On a machine with the same platform (linux x86_64, CPython 3.11), make the wheelhouse once:
#      pip wheel --wheel-dir wheelhouse ".[server]"            # server only (model via --api_base)
#      pip wheel --wheel-dir wheelhouse ".[server,local]"      # + embedded llama.cpp (compiles ~5 min)
# 2. docker build -t oi-local .                      (add --build-arg EXTRAS=server,local for 1b)
# 3. docker run -p 8000:8000 -v ~/models:/models oi-local --model /models/model.gguf
#    or: docker run -p 8000:8000 oi-local --api_base http://host.docker.internal:8080/v1
#
# The server listens on 0.0.0.0 inside the container (needed for -p), so the key matters: set
# INTERPRETER_API_KEY (docker run -e ...) or read the generated one in `docker logs`.
FROM python:3.11-slim-bookworm

ARG EXTRAS=server
ENV PIP_NO_INDEX=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1

COPY wheelhouse/ /tmp/wheelhouse/
RUN pip install --no-cache-dir --no-index --find-links=/tmp/wheelhouse "oi-local[${EXTRAS}]" \
    && rm -rf /tmp/wheelhouse \
    && useradd --create-home --uid 1000 oi

USER oi
WORKDIR /home/oi
ENV INTERPRETER_HOST=0.0.0.0 \
    INTERPRETER_PORT=8000 \
    OI_LOCAL_HOME=/home/oi/.oi-local
EXPOSE 8000
ENTRYPOINT ["python", "-m", "oi_local.server"]
