import { resolve } from 'node:path';
import {
  AbstractStartedContainer,
  GenericContainer,
  getContainerRuntimeClient,
  type StartedTestContainer,
  type StopOptions,
  type StoppedTestContainer,
  Wait,
} from 'testcontainers';
import { type ControlClient, createControlClient } from '../harness/control-client.js';

/** The port the emulator listens on inside its image (the Dockerfile's `EXPOSE 8710`). */
export const EMULATOR_PORT = 8710;
/** Where `withScenariosDir` copies a folder to inside the container. */
export const CONTAINER_SCENARIOS_DIR = '/scenarios';

/** A clock mode of `--clock` (docs/configuration.md). */
export type ClockMode = 'manual' | 'realtime' | `scaled:${number}`;

/** Names the emulator always answers `/_control` on; others must be in `--allowed-hosts`. */
const LOOPBACK: readonly string[] = ['localhost', '127.0.0.1', '::1', '[::1]'];

/**
 * The svc-emulator image as a Testcontainers module: manual clocks unless told otherwise, port
 * 8710 mapped to a free one, started once `GET /_control/health` answers 200.
 * @example
 * const emulator = await new SvcEmulatorContainer('svc-emulator').withSeed('42').start();
 * const account = await emulator.control.newAccount();
 * await fetch(`${account.apiUrl}/keys/me`, { headers: account.headers });
 * await emulator.stop();
 */
export class SvcEmulatorContainer extends GenericContainer {
  private controlToken: string | undefined;

  /** `image`: the tag you built from this repository's Dockerfile (`docker build -t svc-emulator .`). */
  constructor(image = 'svc-emulator') {
    super(image);
    this.withExposedPorts(EMULATOR_PORT).withEnvironment({ EMULATOR_CLOCK: 'manual' });
  }

  /** `EMULATOR_SCENARIO`: a shipped scenario, one in `withScenariosDir`'s folder, or a path inside the container. */
  withScenario(scenario: string): this {
    return this.withEnvironment({ EMULATOR_SCENARIO: scenario });
  }

  /**
   * Copies a folder of this machine into the container (a copy, not a bind mount, so a remote
   * Docker host works too) and sets `EMULATOR_SCENARIOS_DIR`: its files are loadable by name.
   */
  withScenariosDir(dir: string): this {
    return this.withCopyDirectoriesToContainer([
      { source: resolve(dir), target: CONTAINER_SCENARIOS_DIR },
    ]).withEnvironment({ EMULATOR_SCENARIOS_DIR: CONTAINER_SCENARIOS_DIR });
  }

  /** `EMULATOR_SEED`: the seed of ids, secrets and draws. */
  withSeed(seed: string | number): this {
    return this.withEnvironment({ EMULATOR_SEED: String(seed) });
  }

  /** `EMULATOR_CLOCK` of new accounts; the default here is `manual`, as in `startEmulator`. */
  withClock(mode: ClockMode): this {
    return this.withEnvironment({ EMULATOR_CLOCK: mode });
  }

  /** `EMULATOR_CONTROL_TOKEN`; the health wait and `control` send it as `X-Control-Token`. */
  withControlToken(token: string): this {
    this.controlToken = token;
    return this.withEnvironment({ EMULATOR_CONTROL_TOKEN: token });
  }

  protected override async beforeContainerCreated(): Promise<void> {
    // The runtime host is not loopback when the tests run in a container or against a remote
    // Docker (DinD, CI services): `/_control` must be told to answer it, and network aliases.
    const { host } = (await getContainerRuntimeClient()).info.containerRuntime;
    const given = this.environment.EMULATOR_ALLOWED_HOSTS?.split(',') ?? [];
    const hosts = [...new Set([...given, host, ...this.networkAliases])]
      .map((h) => h.trim())
      .filter((h) => h !== '' && !LOOPBACK.includes(h));
    if (hosts.length > 0) this.withEnvironment({ EMULATOR_ALLOWED_HOSTS: hosts.join(',') });
    const headers: Record<string, string> = this.controlToken
      ? { 'x-control-token': this.controlToken }
      : {};
    this.withWaitStrategy(
      Wait.forHttp('/_control/health', EMULATOR_PORT, { abortOnContainerExit: true })
        .forStatusCode(200)
        .withHeaders(headers),
    );
  }

  override async start(): Promise<StartedSvcEmulatorContainer> {
    return new StartedSvcEmulatorContainer(await super.start(), this.controlToken);
  }
}

/**
 * A running emulator container. `baseUrl` and `control` are those of `startEmulator`'s answer, so
 * a helper written for the in-process harness takes either.
 */
export class StartedSvcEmulatorContainer extends AbstractStartedContainer {
  /** A typed client of the control API (`svc-emulator/testing`'s `createControlClient`). */
  readonly control: ControlClient;
  private stopped: Promise<StoppedTestContainer> | undefined;

  constructor(started: StartedTestContainer, controlToken?: string) {
    super(started);
    this.control = createControlClient(this.getBaseUrl(), { token: controlToken });
  }

  /** e.g. `http://localhost:32768`; the product API is under `/v1`. */
  get baseUrl(): string {
    return this.getBaseUrl();
  }

  getBaseUrl(): string {
    const host = this.getHost();
    const name = host.includes(':') ? `[${host}]` : host;
    return `http://${name}:${this.getMappedPort(EMULATOR_PORT)}`;
  }

  /** `<baseUrl>/v1`. */
  getApiUrl(): string {
    return `${this.getBaseUrl()}/v1`;
  }

  /** `<baseUrl>/_control`. */
  getControlUrl(): string {
    return `${this.getBaseUrl()}/_control`;
  }

  /**
   * Stops and removes the container; a second call answers the first's result, so an `afterAll`
   * and a `finally` may both stop it.
   */
  override stop(options?: Partial<StopOptions>): Promise<StoppedTestContainer> {
    this.stopped ??= super.stop(options);
    return this.stopped;
  }
}
