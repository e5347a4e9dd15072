// Per robot, every parameter it takes: its name, type and value set. One list for the local service's
// validation and the app's editors (Template editor, the Upload view's steps). A robot missing here gets
// no parameter checks (its names are not known); add its family's file or a line below to check it.

import { BASE_PARAMS, type RobotParams } from './robots-base';
import { AI_ROBOTS } from './robots-ai';
import { DOCUMENT_ROBOTS } from './robots-document';
import { FILE_ROBOTS } from './robots-file';
import { IMAGE_ROBOTS } from './robots-image';
import { MEDIA_ROBOTS } from './robots-media';
import { MEDIA_COMPOSE_ROBOTS } from './robots-media-compose';
import { STORAGE_ROBOTS } from './robots-storage';
import { STORE_ROBOTS } from './robots-store';

export type { RobotParams } from './robots-base';

const OWN: Readonly<Record<string, RobotParams>> = { ...FILE_ROBOTS, ...IMAGE_ROBOTS, ...MEDIA_ROBOTS, ...MEDIA_COMPOSE_ROBOTS, ...DOCUMENT_ROBOTS, ...STORE_ROBOTS, ...STORAGE_ROBOTS, ...AI_ROBOTS };

/** Robot → its parameters, the common ones (`result`, `output_meta`, …) included. */
export const ROBOT_PARAMS: Readonly<Record<string, RobotParams>> = Object.fromEntries(
  Object.entries(OWN).map(([robot, params]) => [robot, { ...BASE_PARAMS, ...params }]),
);

/** The parameters of a robot, or undefined when the catalog does not list it. */
export const paramsOfRobot = (robot: string): RobotParams | undefined =>
  Object.prototype.hasOwnProperty.call(ROBOT_PARAMS, robot) ? ROBOT_PARAMS[robot] : undefined;
